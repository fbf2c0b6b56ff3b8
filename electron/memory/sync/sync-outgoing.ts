/**
 * This device's side of sync (issue 31): who it is, what it has not sent yet, and the segments it
 * wrote. The outbox (migration 0029) names what each write changed; a record is made from the row
 * as it is when the segment is packed, so a claim or message forgotten before it was sent is never
 * sent at all. Records that arrived from other devices never enter the outbox.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { SyncBody, SyncRecord } from '../../../shared/sync-records';
import type { EntityType } from '../../../shared/memory-schema';
import type { ClaimRow } from '../store/claim-rows';
import { cachedStatement } from '../store/database/statement-cache';
import { outboxOn } from '../store/sync-outbox';
import { readSetting } from '../store/settings';
import type { IsoTime } from '../../../shared/time';

export interface OutgoingBody {
  at: IsoTime;
  body: SyncBody;
}

export interface Outgoing {
  bodies: OutgoingBody[];
  /** The last outbox row these bodies cover (0: nothing to send). */
  lastOutbox: number;
  /** The segment number to write them under. */
  seq: number;
}

export function stateValue(db: Database, key: string): string | undefined {
  return db.prepare<[string], { value: string }>('SELECT value FROM sync_state WHERE key = ?').get(key)?.value;
}

export function setStateValue(db: Database, key: string, value: string): void {
  db.prepare('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** This device's id (drawn once, kept in the store) and name (deviceNameOf). */
export function deviceOf(db: Database): { id: string; name: string } {
  let id = stateValue(db, 'device');
  if (!id) {
    id = randomBytes(16).toString('hex');
    setStateValue(db, 'device', id);
  }
  return { id, name: deviceNameOf(db) };
}

/**
 * This device's name as the others see it: the setting `syncDeviceName` (the host's name until the
 * user names it), the one name Settings → Sync and `tempora sync --name` both read and write.
 */
export function deviceNameOf(db: Database): string {
  return readSetting({ db }, 'syncDeviceName') ?? hostname();
}

/**
 * Turns the outbox on, at this device's first sync (before it applies anything another device
 * wrote): until then new messages and claims were not noted for other devices (migration 0038), so
 * a memory that never syncs keeps no second copy of their ids. Every message and claim stored now
 * goes in once, each at the time it was recorded here, messages before the claims that cite them;
 * one an edit or a move already queued is not queued twice. Returns whether it was off.
 */
export function startOutbox(db: Database): boolean {
  if (outboxOn(db)) return false;
  db.exec(`
    INSERT INTO sync_outbox (kind, ref, recorded_at) SELECT 'episode', id, created_at FROM episodes
      WHERE id NOT IN (SELECT ref FROM sync_outbox WHERE kind = 'episode') ORDER BY created_at, id;
    INSERT INTO sync_outbox (kind, ref, recorded_at) SELECT 'claim', c.sync_id, f.created_at FROM claims c JOIN facts f ON f.id = c.fact_id
      WHERE c.sync_id NOT IN (SELECT ref FROM sync_outbox WHERE kind = 'claim') ORDER BY f.created_at, c.id;
  `);
  setStateValue(db, 'outbox', 'on');
  return true;
}

/**
 * This memory now syncs with a target it has not synced with before (another folder, or one made
 * again): what it sent and applied is not there. Its own segments start again from the first, with
 * every conversation, message and claim it holds queued as at a first sync (what was queued since stays queued),
 * and every other device's segments there are applied from their first (a record held already
 * changes nothing). A segment of the old target that was to be rewritten is not on this one.
 */
export function startOver(db: Database): void {
  // Conversations (their titles and settings) are queued by their own triggers from the start, so the
  // outbox's start (startOutbox) leaves them out: here each goes again, before the messages.
  db.exec(`
    DELETE FROM sync_cursors;
    DELETE FROM sync_segments;
    DELETE FROM sync_segment_content;
    DELETE FROM sync_state WHERE key IN ('outbox', 'blocked', 'purge', 'putting');
    INSERT INTO sync_outbox (kind, ref, recorded_at) SELECT 'conversation', id, created_at FROM conversations
      WHERE id NOT IN (SELECT ref FROM sync_outbox WHERE kind = 'conversation') ORDER BY created_at, id;
  `);
  startOutbox(db);
}

/** Outbox rows not sent yet; before the first sync, with the messages and claims it will queue (startOutbox). */
export function unsentCount(db: Database): number {
  const queued = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM sync_outbox').get()!.n;
  if (outboxOn(db)) return queued;
  return queued + db.prepare<[], { n: number }>('SELECT (SELECT count(*) FROM episodes) + (SELECT count(*) FROM claims) AS n').get()!.n;
}

type EntityRow = { id: string; name: string; type: EntityType };

/** Outbox rows to a segment: a first sync of a large memory goes as many segments, each resumable. */
export const SEGMENT_ROWS = 5_000;

/** What this device has not sent yet (at most `limit` outbox rows), as record bodies in the order they were written. */
export function outgoing(db: Database, limit = SEGMENT_ROWS): Outgoing {
  const rows = db.prepare<[number], { seq: number; kind: string; ref: string; recorded_at: IsoTime }>('SELECT seq, kind, ref, recorded_at FROM sync_outbox ORDER BY seq LIMIT ?').all(limit);
  const lastSegment = db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM sync_segments').get()!.seq ?? 0;
  const entity = db.prepare<[string], EntityRow>('SELECT id, name, type FROM entities WHERE id = ?');
  const claim = db.prepare<[string], ClaimRow>('SELECT * FROM claims WHERE sync_id = ?');
  const episode = db.prepare<[string], Record<string, string | null>>('SELECT id, conversation_id, role, content, reference_time, created_at, utc_offset, time_zone FROM episodes WHERE id = ?');
  const conversation = db.prepare<[string], { id: string; title: string; created_at: IsoTime; learn: number; title_source: string }>('SELECT id, title, created_at, learn, title_source FROM conversations WHERE id = ?');
  const bodies: OutgoingBody[] = [];
  const seen = new Set<string>();
  // A conversation's record is its state now, versioned by its latest change (the latest wins everywhere).
  const changed = new Map<string, IsoTime>();
  for (const row of rows) if (row.kind === 'conversation') changed.set(row.ref, row.recorded_at);
  for (const row of rows) {
    // A row written twice before a sync (a conversation renamed twice) goes once, as it is now: its
    // body is read from the store as it is now, so the same kind and ref make the same body.
    const key = `${row.kind}\u0000${row.ref}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const body = bodyOf(row.kind, row.ref);
    if (!body) continue;
    bodies.push({ at: body.kind === 'conversation' ? changed.get(body.id)! : row.recorded_at, body });
  }
  return { bodies, lastOutbox: rows.at(-1)?.seq ?? 0, seq: lastSegment + 1 };

  function bodyOf(kind: string, ref: string): SyncBody | undefined {
    switch (kind) {
      case 'claim': {
        const c = claim.get(ref);
        if (!c) return undefined; // gone before it was sent: its removal follows
        const subject = entity.get(c.subject_id);
        const object = c.object_id === null ? null : entity.get(c.object_id);
        if (!subject || object === undefined) return undefined;
        return {
          kind: 'claim', uid: ref, subject, predicate: c.predicate, object, object_literal: c.object_id === null ? c.object_literal : null, fact: c.fact,
          cardinality: c.cardinality, valid_at: c.valid_at, valid_at_precision: c.valid_at_precision, reference_time: c.reference_time,
          end_at: c.end_at, end_precision: c.end_precision, end_kind: c.end_kind, episode_ids: JSON.parse(c.episode_ids) as string[], origin: c.origin,
        };
      }
      case 'unclaim':
        return { kind: 'unclaim', uid: ref };
      case 'episode': {
        const e = episode.get(ref);
        return e ? ({ kind: 'episode', ...e } as SyncBody) : undefined;
      }
      case 'episode-forgotten':
        return { kind: 'episode-forgotten', id: ref };
      case 'conversation': {
        const c = conversation.get(ref);
        return c ? { kind: 'conversation', ...c, learn: c.learn !== 0 } : undefined;
      }
      case 'conversation-deleted':
        return { kind: 'conversation-deleted', id: ref };
      case 'forget': {
        const f = JSON.parse(ref) as { subject_id: string; predicate: string; hashes: string[] };
        // The subject is named as the claims name it (a forgotten name may be gone by now: its id is enough).
        const subject = entity.get(f.subject_id) ?? { id: f.subject_id, name: f.subject_id, type: 'other' as const };
        return { kind: 'forget', subject, predicate: f.predicate, hashes: f.hashes };
      }
      default:
        return undefined;
    }
  }
}

/** The keys a record holds content under, for rewriting own segments after a forget. */
export function contentKeyOf(body: SyncBody): string | null {
  if (body.kind === 'claim') return `claim:${body.uid}`;
  if (body.kind === 'episode') return `episode:${body.id}`;
  return null;
}

/**
 * Records that a segment is on the target: the outbox rows it covers are done, and the keys of the
 * content it holds are kept (a later forget finds the segments to rewrite by them).
 */
export function segmentWritten(db: Database, seq: number, name: string, lastOutbox: number, records: SyncRecord[]): void {
  const bodies = records.map((r) => r.body);
  db.prepare('INSERT OR REPLACE INTO sync_segments (seq, name, last_outbox, uploaded) VALUES (?, ?, ?, 1)').run(seq, name, lastOutbox);
  db.prepare('DELETE FROM sync_outbox WHERE seq <= ?').run(lastOutbox);
  db.prepare("DELETE FROM sync_state WHERE key = 'putting'").run();
  const keys = new Set<string>();
  for (const body of bodies) {
    const k = contentKeyOf(body);
    if (k) keys.add(k);
  }
  db.prepare('INSERT OR REPLACE INTO sync_segment_content (seq, keys) VALUES (?, ?)').run(seq, [...keys].join('\n'));
  noteToPurge(db, purgeKeysOf(bodies));
  // What this device took away stays away here too: another device that held the same message or
  // claim (the same document imported on both) may send it later, before it has applied this forget.
  const removed = db.prepare('INSERT OR IGNORE INTO sync_removed (key) VALUES (?)');
  for (const key of removedKeysOf(bodies)) removed.run(key);
  // This device's own conversation states carry their versions from now on: an older one from elsewhere does not undo them.
  for (const record of records) if (record.body.kind === 'conversation') keepVersion(db, `conversation:${record.body.id}`, versionOf(record));
}

/** The keys of what records take away for good (sync_removed: an arrival of them is ignored). */
function removedKeysOf(bodies: SyncBody[]): string[] {
  return bodies.flatMap((b) => {
    if (b.kind === 'unclaim') return [`claim:${b.uid}`];
    if (b.kind === 'episode-forgotten') return [`episode:${b.id}`];
    if (b.kind === 'conversation-deleted') return [`conversation:${b.id}`];
    return [];
  });
}

/** A record's place in last-writer-wins: when it was recorded, then by which device. */
export const versionOf = (record: Pick<SyncRecord, 'at' | 'device'>) => `${record.at}|${record.device}`;

/** Keeps `version` for `key` unless a later one is kept; says whether it is now the latest. */
export function keepVersion(db: Database, key: string, version: string): boolean {
  const held = cachedStatement<[string], { version: string }>(db, 'SELECT version FROM sync_versions WHERE key = ?').get(key)?.version;
  if (held !== undefined && held >= version) return false;
  cachedStatement(db, 'INSERT OR REPLACE INTO sync_versions (key, version) VALUES (?, ?)').run(key, version);
  return true;
}

/** The content keys a batch of records takes away for good (a forget): their segments are rewritten without them. */
export function purgeKeysOf(bodies: SyncBody[]): string[] {
  if (!bodies.some((b) => b.kind === 'forget' || b.kind === 'episode-forgotten')) return [];
  return bodies.flatMap((b) => (b.kind === 'unclaim' ? [`claim:${b.uid}`] : b.kind === 'episode-forgotten' ? [`episode:${b.id}`] : []));
}

export function noteToPurge(db: Database, keys: string[]): void {
  if (keys.length === 0) return;
  const held = JSON.parse(stateValue(db, 'purge') ?? '[]') as string[];
  setStateValue(db, 'purge', JSON.stringify([...new Set([...held, ...keys])]));
}

/**
 * Own segments holding content that must go, with the keys to drop from each: every segment's keys
 * are read (a forget is rare; one row a segment keeps each upload an append: migration 0035).
 */
export function segmentsToRewrite(db: Database): { seq: number; name: string; keys: string[] }[] {
  const purge = new Set(JSON.parse(stateValue(db, 'purge') ?? '[]') as string[]);
  if (purge.size === 0) return [];
  const found: { seq: number; name: string; keys: string[] }[] = [];
  const rows = db.prepare<[], { seq: number; name: string; keys: string }>('SELECT c.seq, s.name, c.keys FROM sync_segment_content c JOIN sync_segments s ON s.seq = c.seq ORDER BY c.seq');
  for (const row of rows.iterate()) {
    const keys = row.keys.split('\n').filter((key) => purge.has(key));
    if (keys.length > 0) found.push({ seq: row.seq, name: row.name, keys });
  }
  return found;
}

/** A segment rewritten without forgotten content: its new name, and the keys it no longer holds. */
export function segmentRewritten(db: Database, seq: number, name: string, keys: string[]): void {
  db.prepare('UPDATE sync_segments SET name = ? WHERE seq = ?').run(name, seq);
  const held = db.prepare<[number], string>('SELECT keys FROM sync_segment_content WHERE seq = ?').pluck().get(seq);
  if (held === undefined) return;
  const gone = new Set(keys);
  db.prepare('UPDATE sync_segment_content SET keys = ? WHERE seq = ?').run(
    held
      .split('\n')
      .filter((key) => key !== '' && !gone.has(key))
      .join('\n'),
    seq,
  );
}

export function purgeDone(db: Database): void {
  db.prepare("DELETE FROM sync_state WHERE key = 'purge'").run();
}

/**
 * Outbox rows that a taken-back segment holds already (a later copy of this memory sent them:
 * own-segments.ts): sending them again would only double what the target holds. A message's or a
 * conversation's row goes only where what it would send now is what the segment holds (moved or
 * renamed here since: it stays). One pass over the outbox, whatever its size.
 */
export function alreadySent(db: Database, records: SyncRecord[]): void {
  const episode = db.prepare<[string], { conversation_id: string | null }>('SELECT conversation_id FROM episodes WHERE id = ?');
  const conversation = db.prepare<[string], { title: string; learn: number; title_source: string }>('SELECT title, learn, title_source FROM conversations WHERE id = ?');
  const keys: string[] = [];
  for (const { body } of records) {
    if (body.kind === 'claim' || body.kind === 'unclaim') keys.push(`${body.kind}\u0000${body.uid}`);
    else if (body.kind === 'episode-forgotten' || body.kind === 'conversation-deleted') keys.push(`${body.kind}\u0000${body.id}`);
    else if (body.kind === 'forget') keys.push(`forget\u0000${JSON.stringify({ subject_id: body.subject.id, predicate: body.predicate, hashes: [...body.hashes].sort() })}`);
    else if (body.kind === 'episode') {
      if (episode.get(body.id)?.conversation_id === body.conversation_id) keys.push(`episode\u0000${body.id}`);
    } else {
      const now = conversation.get(body.id);
      if (now && now.title === body.title && now.learn !== 0 === body.learn && now.title_source === body.title_source) keys.push(`conversation\u0000${body.id}`);
    }
  }
  if (keys.length > 0) db.prepare("DELETE FROM sync_outbox WHERE kind || char(0) || ref IN (SELECT value FROM json_each(?))").run(JSON.stringify(keys));
}
