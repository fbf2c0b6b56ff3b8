/**
 * Applies one segment of another device's records (issue 31; docs/sync.md), inside one write: the
 * messages and conversations it holds, its claims added and removed, then each touched slot resolved
 * once by the write batch — a slot's valid-time facts are a pure function of its claims, so devices
 * holding the same claims hold the same facts. A forget deletes what this device holds of it: the
 * message, and the versions whose sentences hash as forgotten. Applying a segment twice changes
 * nothing (a cursor per device, and every record idempotent); nothing applied is sent on again (the
 * outbox triggers are off while sync_applying holds a row).
 */
import type { SyncClaim, SyncRecord } from '../../../shared/sync-records';
import { cachedStatement } from '../store/database/statement-cache';
import { textHash } from '../store/sync-outbox';
import type { NewClaim } from '../temporal/slot-resolver';
import type { WriteContext } from '../temporal/write-batch';
import { keepVersion, noteToPurge, versionOf } from './sync-outgoing';
import { WaitingClaims } from './sync-waiting';
import type { IsoTime } from '../../../shared/time';

export interface ApplyOptions {
  /** Called after each record (tests throw here: a crash mid-apply rolls the whole segment back). */
  afterRecord?: (index: number) => void;
  /**
   * Called before a forget's record is applied: a first sync builds then what only a forget reads
   * (transfer/bulk-load.ts readyForDeletes), not as every claim goes in.
   */
  beforeForget?: () => void;
  /**
   * The uids of claims gathered by earlier segments of this write and not yet resolved: given, the
   * segment only adds (sync-first.ts: conversations, messages, claims) and leaves its claims in the
   * write batch with theirs — each slot is resolved once, when the caller commits.
   */
  gathered?: Set<string>;
}

/** What a segment that only adds holds (sync-first.ts gathers such segments' claims). */
const ADDING_KINDS: ReadonlySet<SyncRecord['body']['kind']> = new Set(['conversation', 'episode', 'claim']);

/** Whether the records only add (conversations, messages, claims): nothing of what is stored is taken away. */
export const onlyAdds = (records: SyncRecord[]): boolean => records.every((r) => ADDING_KINDS.has(r.body.kind));

export interface ApplyResult {
  applied: boolean;
  records: number;
}

type Ref = SyncClaim['subject'];
const slotKey = (subjectId: string, predicate: string) => `${subjectId}\u0000${predicate}`;

/** The cursor of a device: the last of its segments applied here (0: none). */
export function cursorOf(ctx: WriteContext, device: string): number {
  return ctx.db.prepare<[string], { seq: number }>('SELECT seq FROM sync_cursors WHERE device = ?').get(device)?.seq ?? 0;
}

export function applySegment(ctx: WriteContext, header: { device: string; deviceName: string; seq: number }, records: SyncRecord[], options: ApplyOptions = {}): ApplyResult {
  const { db } = ctx;
  if (cursorOf(ctx, header.device) >= header.seq) return { applied: false, records: 0 };
  if (options.gathered && !onlyAdds(records)) throw new Error('internal: a segment that removes was applied as one that only adds');
  db.prepare('INSERT OR IGNORE INTO sync_applying (one) VALUES (1)').run();
  const removed = db.prepare<[string], number>('SELECT 1 FROM sync_removed WHERE key = ?').pluck();
  const remove = db.prepare('INSERT OR IGNORE INTO sync_removed (key) VALUES (?)');
  const claimBySync = db.prepare<[string], { id: number; fact_id: string; subject_id: string; predicate: string }>('SELECT id, fact_id, subject_id, predicate FROM claims WHERE sync_id = ?');
  const pending = new Map<string, SyncClaim>();
  const lost = new Set<string>();
  /** Versions left without claims by a message forgotten: they go whole, as a local forget of the message does. */
  const orphaned = new Set<string>();
  const touched = new Map<string, { subjectId: string; predicate: string }>();
  const forgets = new Map<string, { subjectId: string; predicate: string; hashes: Set<string> }>();
  const episodesGone: string[] = [];
  const unclaimed: string[] = [];
  const waiting = new WaitingClaims(db);
  /** Messages this segment brings or forgets: the claims waiting for them are looked at again. */
  const arrived = new Set<string>();

  /** A claim as it stands once the messages forgotten here are gone from it (null: it stated only those). */
  const withoutForgotten = (claim: SyncClaim): SyncClaim | null => {
    const cited = claim.episode_ids.filter((id) => removed.get(`episode:${id}`) === undefined);
    if (cited.length === claim.episode_ids.length) return claim;
    return cited.length === 0 ? null : { ...claim, episode_ids: cited };
  };

  records.forEach((record, index) => {
    const body = record.body;
    switch (body.kind) {
      case 'conversation': {
        const key = `conversation:${body.id}`;
        if (removed.get(key) !== undefined || !keepVersion(db, key, versionOf(record))) break;
        cachedStatement(db, 'INSERT OR IGNORE INTO conversations (id, title, created_at) VALUES (?, ?, ?)').run(body.id, body.title, body.created_at);
        cachedStatement(db, 'UPDATE conversations SET title = ?, learn = ?, title_source = ? WHERE id = ?').run(body.title, body.learn ? 1 : 0, body.title_source, body.id);
        break;
      }
      case 'conversation-deleted':
        remove.run(`conversation:${body.id}`);
        db.prepare('UPDATE episodes SET conversation_id = NULL WHERE conversation_id = ?').run(body.id);
        db.prepare('DELETE FROM conversations WHERE id = ?').run(body.id);
        break;
      case 'episode': {
        arrived.add(body.id);
        if (removed.get(`episode:${body.id}`) !== undefined) break;
        if (body.conversation_id !== null) ensureConversation(ctx, body.conversation_id, body.created_at);
        const { kind: _kind, ...episode } = body;
        if (hasEpisode(ctx, body.id)) cachedStatement(db, 'UPDATE episodes SET conversation_id = ? WHERE id = ?').run(body.conversation_id, body.id);
        else ctx.episodes.insert(episode);
        break;
      }
      case 'episode-forgotten': {
        options.beforeForget?.();
        arrived.add(body.id);
        remove.run(`episode:${body.id}`);
        episodesGone.push(body.id);
        // Every device does to the claims citing it what a forget of the message does (forgetEpisode):
        // a claim it alone stated goes, the others stop citing it — the same on every device, so
        // nothing needs sending.
        for (const claim of ctx.claims.citing(body.id)) {
          const rest = (JSON.parse(claim.episode_ids) as string[]).filter((e) => e !== body.id);
          if (rest.length) ctx.claims.setEpisodes(claim.id, rest);
          else {
            ctx.claims.delete(claim.id);
            lost.add(claim.fact_id);
            orphaned.add(claim.fact_id);
          }
          touched.set(slotKey(claim.subject_id, claim.predicate), { subjectId: claim.subject_id, predicate: claim.predicate });
        }
        for (const [uid, claim] of pending) {
          const cited = withoutForgotten(claim);
          if (cited === null) pending.delete(uid);
          else pending.set(uid, cited);
        }
        break;
      }
      case 'claim': {
        const key = `claim:${body.uid}`;
        if (removed.get(key) !== undefined || options.gathered?.has(body.uid) || claimBySync.get(body.uid)) break;
        const cited = withoutForgotten(body);
        if (cited !== null) pending.set(body.uid, cited);
        break;
      }
      case 'unclaim': {
        remove.run(`claim:${body.uid}`);
        unclaimed.push(body.uid);
        if (pending.delete(body.uid)) break;
        const row = claimBySync.get(body.uid);
        if (row) {
          ctx.claims.delete(row.id);
          lost.add(row.fact_id);
          touched.set(slotKey(row.subject_id, row.predicate), { subjectId: row.subject_id, predicate: row.predicate });
        } else waiting.stop(body.uid);
        break;
      }
      case 'forget': {
        options.beforeForget?.();
        const subjectId = localEntity(ctx, body.subject, false);
        if (subjectId === null) break;
        const key = slotKey(subjectId, body.predicate);
        const slot = forgets.get(key) ?? { subjectId, predicate: body.predicate, hashes: new Set<string>() };
        for (const hash of body.hashes) slot.hashes.add(hash);
        forgets.set(key, slot);
        break;
      }
    }
    options.afterRecord?.(index);
  });

  // Claims that waited for a message another device had not sent yet, and the new ones.
  for (const woken of waiting.wake(arrived)) {
    const claim = withoutForgotten(woken);
    if (claim !== null && !pending.has(claim.uid)) pending.set(claim.uid, claim);
  }
  /** Local ids of the entities the new claims name, looked up once per segment. */
  const entityIds = new Map<string, string>();
  for (const claim of pending.values()) {
    const missing = claim.episode_ids.filter((id) => !hasEpisode(ctx, id));
    if (missing.length > 0) {
      waiting.wait(claim, missing);
      continue;
    }
    const newClaim = newClaimOf(ctx, claim, entityIds);
    ctx.slots.add(newClaim);
    options.gathered?.add(claim.uid);
  }
  if (options.gathered) return finishSegment(ctx, header, records.length, ctx.clock.now());
  // A version left with no claim is no longer held: forgotten where its sentence was, else replaced.
  const now = ctx.clock.now();
  const doomed: string[] = [];
  for (const factId of lost) {
    const row = ctx.rows.byId(factId);
    if (!row || row.expired_at !== null || ctx.claims.ofFact(factId).length > 0) continue;
    const forgotten = forgets.get(slotKey(row.subject_id, row.predicate))?.hashes.has(textHash(row.fact));
    if (orphaned.has(factId)) doomed.push(...ctx.db.prepare<[string], string>('SELECT id FROM facts WHERE lineage_id = ?').pluck().all(row.lineage_id));
    else if (forgotten) doomed.push(factId);
    else ctx.rows.expire(factId, now);
  }
  const names = deleteVersions(ctx, doomed);
  for (const slot of touched.values()) ctx.slots.refresh(slot.subjectId, slot.predicate);
  ctx.slots.commit();
  // A version kept as it was by the claims it still holds cites only their messages (a new one cites them already).
  for (const factId of lost) {
    const claims = ctx.claims.ofFact(factId);
    if (claims.length > 0) ctx.rows.citeOnly(factId, new Set(claims.flatMap((c) => JSON.parse(c.episode_ids) as string[])));
  }
  for (const slot of forgets.values()) names.push(...scrubHistory(ctx, slot.subjectId, slot.predicate, slot.hashes));
  for (const id of episodesGone) forgetEpisodeHere(ctx, id);
  dropUnnamed(ctx, names);
  if (forgets.size > 0 || episodesGone.length > 0) noteToPurge(db, [...unclaimed.map((uid) => `claim:${uid}`), ...episodesGone.map((id) => `episode:${id}`)]);
  return finishSegment(ctx, header, records.length, now);
}

/** The segment's last step: its device's cursor moved past it, and what is applied from now on may be sent again. */
function finishSegment(ctx: WriteContext, header: { device: string; deviceName: string; seq: number }, records: number, now: IsoTime): ApplyResult {
  ctx.db.prepare('DELETE FROM sync_applying').run();
  ctx.db.prepare('INSERT OR REPLACE INTO sync_cursors (device, name, seq, applied_at) VALUES (?, ?, ?, ?)').run(header.device, header.deviceName, header.seq, now);
  return { applied: true, records };
}

function ensureConversation(ctx: WriteContext, id: string, at: IsoTime): void {
  // Another device's message may arrive before its conversation: a placeholder the conversation's own record fills in.
  cachedStatement(ctx.db, 'INSERT OR IGNORE INTO conversations (id, title, created_at) VALUES (?, ?, ?)').run(id, '', at);
}

/** localEntity, remembered in `known` (an entity is never deleted while a segment's claims are placed). */
function knownEntity(ctx: WriteContext, ref: Ref, known: Map<string, string>): string {
  const key = `${ref.type === 'user' ? 'user' : ''}\u0000${ref.id}`;
  let id = known.get(key);
  if (id === undefined) {
    id = localEntity(ctx, ref)!;
    known.set(key, id);
  }
  return id;
}

function hasEpisode(ctx: WriteContext, id: string): boolean {
  return cachedStatement<[string], number>(ctx.db, 'SELECT 1 FROM episodes WHERE id = ?').pluck().get(id) !== undefined;
}

/** The local id of an entity another device named: the same id, created when missing; the user is this device's user. */
function localEntity(ctx: WriteContext, ref: Ref, create = true): string | null {
  if (ref.type === 'user') {
    const me = cachedStatement<[], { id: string }>(ctx.db, "SELECT id FROM entities WHERE type = 'user' ORDER BY created_at, id LIMIT 1").get();
    if (me) return me.id;
  }
  if (cachedStatement<[string], number>(ctx.db, 'SELECT 1 FROM entities WHERE id = ?').pluck().get(ref.id) !== undefined) return ref.id;
  if (!create) return null;
  return ctx.entities.create({ id: ref.id, name: ref.name, type: ref.type, aliases: [], summary: '' }).id;
}

function newClaimOf(ctx: WriteContext, c: SyncClaim, known: Map<string, string>): NewClaim {
  return {
    subjectId: knownEntity(ctx, c.subject, known),
    predicate: c.predicate,
    objectId: c.object === null ? null : knownEntity(ctx, c.object, known),
    objectLiteral: c.object === null ? c.object_literal : null,
    fact: c.fact,
    cardinality: c.cardinality,
    validAt: c.valid_at,
    validPrecision: c.valid_at_precision,
    referenceTime: c.reference_time,
    end: c.end_at === null ? null : { at: c.end_at, kind: c.end_kind ?? 'explicit', by: null, precision: c.end_precision ?? 'instant' },
    episodeIds: c.episode_ids,
    origin: c.origin,
    syncId: c.uid,
  };
}

/** Versions of a slot whose sentence was forgotten elsewhere, no longer held by a claim: deleted (returns the entities they named). */
function scrubHistory(ctx: WriteContext, subjectId: string, predicate: string, hashes: Set<string>): string[] {
  const rows = ctx.db
    .prepare<[string, string], { id: string; fact: string; live: number }>(
      'SELECT id, fact, (expired_at IS NULL AND EXISTS (SELECT 1 FROM claims c WHERE c.fact_id = f.id)) AS live FROM facts f WHERE subject_id = ? AND predicate = ?',
    )
    .all(subjectId, predicate);
  return deleteVersions(ctx, rows.filter((r) => !r.live && hashes.has(textHash(r.fact))).map((r) => r.id));
}

/**
 * Deletes versions, leaving no pointer at them; a chain that loses its first version is named by its
 * earliest left. Returns the entities they named (dropUnnamed).
 */
function deleteVersions(ctx: WriteContext, ids: string[]): string[] {
  if (ids.length === 0) return [];
  const { db } = ctx;
  const list = JSON.stringify(ids);
  const named = db
    .prepare<[string], { subject_id: string; object_id: string | null }>('SELECT subject_id, object_id FROM facts WHERE id IN (SELECT value FROM json_each(?))')
    .all(list)
    .flatMap((r) => (r.object_id === null ? [r.subject_id] : [r.subject_id, r.object_id]));
  const lineages = db.prepare<[string], { lineage_id: string }>('SELECT DISTINCT lineage_id FROM facts WHERE id IN (SELECT value FROM json_each(?))').all(list);
  db.prepare('DELETE FROM message_facts WHERE fact_id IN (SELECT value FROM json_each(?))').run(list);
  db.prepare('DELETE FROM fact_episodes WHERE fact_id IN (SELECT value FROM json_each(?))').run(list);
  db.prepare('UPDATE facts SET invalidated_by = NULL WHERE invalidated_by IN (SELECT value FROM json_each(?))').run(list);
  db.prepare('UPDATE facts SET supersedes = NULL WHERE supersedes IN (SELECT value FROM json_each(?))').run(list);
  db.prepare('UPDATE claims SET end_by = NULL WHERE end_by IN (SELECT value FROM json_each(?))').run(list);
  db.prepare('DELETE FROM facts WHERE id IN (SELECT value FROM json_each(?))').run(list);
  for (const { lineage_id } of lineages) {
    if (ctx.rows.byId(lineage_id)) continue;
    const first = db.prepare<[string], { id: string }>('SELECT id FROM facts WHERE lineage_id = ? ORDER BY created_at, id LIMIT 1').get(lineage_id);
    if (first) db.prepare('UPDATE facts SET lineage_id = ? WHERE lineage_id = ?').run(first.id, lineage_id);
  }
  return named;
}

/** A name only forgotten facts held goes with them, as a forget does here (temporal/forget.ts); never the user. */
function dropUnnamed(ctx: WriteContext, candidates: string[]): void {
  const named = ctx.db.prepare<[string, string, string, string], number>(
    'SELECT 1 WHERE EXISTS (SELECT 1 FROM facts WHERE subject_id = ?) OR EXISTS (SELECT 1 FROM facts WHERE object_id = ?) OR EXISTS (SELECT 1 FROM claims WHERE subject_id = ?) OR EXISTS (SELECT 1 FROM claims WHERE object_id = ?)',
  ).pluck();
  for (const id of new Set(candidates)) {
    const entity = ctx.entities.byId(id);
    if (entity && entity.type !== 'user' && named.get(id, id, id, id) === undefined) ctx.entities.delete(id);
  }
}

/** A message forgotten on another device: gone here too, with every link to it. */
function forgetEpisodeHere(ctx: WriteContext, id: string): void {
  if (!ctx.episodes.byId(id)) return;
  ctx.db.prepare('DELETE FROM fact_episodes WHERE episode_id = ?').run(id);
  ctx.db.prepare('DELETE FROM ingestion_jobs WHERE episode_id = ?').run(id);
  ctx.episodes.delete(id);
}
