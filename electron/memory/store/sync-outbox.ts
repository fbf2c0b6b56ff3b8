/**
 * What a forget tells the other devices (issue 31): the sync outbox is kept by triggers (migration
 * 0029; new messages and claims only from the device's first sync on: 0038), except for this — the
 * forgotten versions' sentences as sha256 hashes, per slot, never the text, so that each device can
 * delete the history it holds of them (memory/sync/sync-apply.ts).
 * Nothing is noted while a sync applies another device's records.
 */
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';

export const textHash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The outbox triggers that run once per loaded row: a bulk load drops them and queues what it loaded once (queueLoaded). */
export const SYNC_ROW_TRIGGERS = ['episodes_sync_insert', 'claims_sync_insert'] as const;

/** Whether this memory notes its new messages and claims for other devices: from its first sync on (sync-outgoing.ts startOutbox). */
export function outboxOn(db: Database): boolean {
  return db.prepare("SELECT 1 FROM sync_state WHERE key = 'outbox'").get() !== undefined;
}

/**
 * Queues a whole loaded memory for sync (once the outbox is on: before, the first sync queues it),
 * messages before the claims that cite them (the load's worker copies its messages in last: queued
 * by trigger, every claim went first and waited on the receiving device for its message). Every claim has its sync id already (ClaimRows.insert draws it).
 */
export function queueLoaded(db: Database): void {
  if (!outboxOn(db)) return;
  db.exec(`
    INSERT INTO sync_outbox (kind, ref, recorded_at) SELECT 'episode', id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM episodes ORDER BY created_at, id;
    INSERT INTO sync_outbox (kind, ref, recorded_at) SELECT 'claim', sync_id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM claims ORDER BY id;
  `);
}

/** Notes the versions about to be deleted (ids of facts) as forgotten, in the write's transaction. */
export function noteForgottenFacts(db: Database, factIds: string[]): void {
  if (factIds.length === 0 || db.prepare('SELECT 1 FROM sync_applying').get() !== undefined) return;
  const rows = db
    .prepare<[string], { subject_id: string; predicate: string; fact: string }>('SELECT subject_id, predicate, fact FROM facts WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(factIds));
  const slots = new Map<string, { subject_id: string; predicate: string; hashes: Set<string> }>();
  for (const row of rows) {
    const key = `${row.subject_id}\u0000${row.predicate}`;
    const slot = slots.get(key) ?? { subject_id: row.subject_id, predicate: row.predicate, hashes: new Set<string>() };
    slot.hashes.add(textHash(row.fact));
    slots.set(key, slot);
  }
  const insert = db.prepare("INSERT INTO sync_outbox (kind, ref, recorded_at) VALUES ('forget', ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))");
  for (const slot of slots.values()) insert.run(JSON.stringify({ subject_id: slot.subject_id, predicate: slot.predicate, hashes: [...slot.hashes].sort() }));
}
