/**
 * Import of an export document: validated whole before anything is written, written in one
 * transaction (the caller's), refusing ids that already exist unless `replace`.
 * Internal columns that the format does not carry (lineage, end kind, reference time) are derived.
 */
import type { Database } from 'better-sqlite3';
import { isExportDocument } from '../../../shared/export-check';
import { describeZodError, memoryExport, type EntityRecord, type FactRecord, type MemoryExport } from '../../../shared/memory-schema';
import type { ClaimRows } from '../store/claim-rows';
import type { EntityStore } from '../store/entity-store';
import type { FactRows } from '../store/fact-rows';
import { MemoryInputError } from '../memory-errors';
import { startBulkLoad } from './bulk-load';
import type { BulkLoadHelper } from './bulk-load-helper';
import { normalizeName, USER_ENTITY_NAME } from '../store/normalize';
import type { SlotResolver } from '../temporal/slot-resolver';
import type { EndKind } from '../temporal/temporal-rules';

export interface ImportSummary {
  conversations: number;
  episodes: number;
  entities: number;
  facts: number;
  replaced: number;
  /** Entities of the document that were already in the memory under another id (the user, namesakes): their facts joined them. */
  merged: number;
}

/** Parses and checks a document (shape, duplicates, references, times). Throws MemoryInputError naming the field. */
export function parseExport(input: unknown): MemoryExport {
  // The document as it is when it passes (most do); zod only for the message when it does not.
  if (isExportDocument(input)) return input;
  const parsed = memoryExport.safeParse(input);
  if (!parsed.success) throw new MemoryInputError(`not a valid Tempora export: ${describeZodError(parsed.error)}`, parsed.error.issues[0]?.path.join('.') ?? '(root)');
  return parsed.data;
}

export interface ImportContext {
  db: Database;
  rows: FactRows;
  claims: ClaimRows;
  entities: EntityStore;
  slots: SlotResolver;
}

/** True when the store holds no facts and no episodes: an import can then load in bulk. */
export function isEmptyStore(db: Database): boolean {
  return !db.prepare('SELECT 1 FROM facts UNION ALL SELECT 1 FROM episodes LIMIT 1').get();
}

export function importMemory(ctx: ImportContext, doc: MemoryExport, replace: boolean, helper: BulkLoadHelper | null = null): ImportSummary {
  const { db, rows, entities } = ctx;
  // Into a store without facts and episodes, no fact or episode can clash or be cited from the store:
  // their lookups are skipped, and indexes and queue triggers are rebuilt once after loading instead
  // of being updated row by row (several times faster for a whole memory moving to a new machine).
  const bulk = isEmptyStore(db);
  const exists = storeLookups(db, !bulk);
  const docConversations = byUniqueId(doc.conversations, 'conversations');
  const docEpisodes = byUniqueId(doc.episodes, 'episodes');
  const docEntities = byUniqueId(doc.entities, 'entities');
  const docFacts = byUniqueId(doc.facts, 'facts');

  const clashes: string[] = [];
  for (const c of doc.conversations) if (exists.conversation(c.id)) clashes.push(c.id);
  for (const e of doc.entities) if (exists.entity(e.id)) clashes.push(e.id);
  if (!bulk) {
    for (const e of doc.episodes) if (exists.episode(e.id)) clashes.push(e.id);
    for (const f of doc.facts) if (exists.fact(f.id)) clashes.push(f.id);
  }
  if (clashes.length && !replace) {
    throw new MemoryInputError(`${clashes.length} id(s) already exist in this memory (first: ${clashes[0]}); use --replace to overwrite them`, 'ids');
  }

  doc.episodes.forEach((e, i) => {
    if (e.conversation_id !== null && !docConversations.has(e.conversation_id) && !exists.conversation(e.conversation_id)) {
      throw new MemoryInputError(`episodes.${i}.conversation_id: unknown conversation ${e.conversation_id}`, `episodes.${i}.conversation_id`);
    }
  });
  const fail = (i: number, field: string, message: string): never => {
    throw new MemoryInputError(`facts.${i}.${field}: ${message}`, `facts.${i}.${field}`);
  };
  // A plain loop with messages built only on failure: it runs for every fact of a large import.
  // It also finds when each fact was first said: the earliest reference time of its episodes.
  const referenceTimes: (string | undefined)[] = new Array(doc.facts.length);
  for (let i = 0; i < doc.facts.length; i++) {
    const f = doc.facts[i]!;
    if (!docEntities.has(f.subject_id) && !exists.entity(f.subject_id)) fail(i, 'subject_id', `unknown entity ${f.subject_id}`);
    if (f.object_id !== null && !docEntities.has(f.object_id) && !exists.entity(f.object_id)) fail(i, 'object_id', `unknown entity ${f.object_id}`);
    let earliest: string | undefined;
    for (let j = 0; j < f.episode_ids.length; j++) {
      const e = f.episode_ids[j]!;
      const t = docEpisodes.get(e)?.reference_time ?? exists.episodeTime(e);
      if (t === undefined) fail(i, `episode_ids.${j}`, `unknown episode ${e}`);
      else if (earliest === undefined || t < earliest) earliest = t;
    }
    referenceTimes[i] = earliest;
    if (f.invalid_at !== null && f.invalid_at < f.valid_at) fail(i, 'invalid_at', `is before valid_at (${f.valid_at})`);
    if (f.expired_at !== null && f.expired_at < f.created_at) fail(i, 'expired_at', `is before created_at (${f.created_at})`);
    if (f.supersedes !== null && !docFacts.has(f.supersedes) && !exists.fact(f.supersedes)) fail(i, 'supersedes', `unknown fact ${f.supersedes}`);
    if (f.invalidated_by !== null && !docFacts.has(f.invalidated_by) && !exists.fact(f.invalidated_by)) fail(i, 'invalidated_by', `unknown fact ${f.invalidated_by}`);
  }
  const lineage = lineageResolver(docFacts, rows);

  const bulkLoad = bulk ? startBulkLoad(db, helper) : null;

  if (replace) {
    const ids = JSON.stringify(clashes);
    ctx.claims.deleteOfFacts(clashes);
    db.prepare('DELETE FROM fact_episodes WHERE fact_id IN (SELECT value FROM json_each(?))').run(ids);
    db.prepare('DELETE FROM facts WHERE id IN (SELECT value FROM json_each(?))').run(ids);
  }
  const upsertConversation = db.prepare('INSERT INTO conversations (id, title, created_at) VALUES (@id, @title, @created_at) ON CONFLICT(id) DO UPDATE SET title = excluded.title, created_at = excluded.created_at');
  for (const c of doc.conversations) upsertConversation.run(c);
  // A memory imported into one that is already in use: the document's user is this memory's user,
  // and an entity with the same name and type is the same one. Their facts join the existing
  // entity (its aliases grow), and the slots they land in are re-resolved by the rules below.
  const joined = joinExistingEntities(doc.entities, entities, exists);
  const entityId = joined.size ? (id: string) => joined.get(id) ?? id : (id: string) => id;
  for (const e of doc.entities) {
    const target = joined.get(e.id);
    if (target !== undefined) {
      for (const name of [e.name, ...e.aliases]) entities.addAlias(target, name);
      continue;
    }
    if (replace && exists.entity(e.id)) {
      db.prepare('UPDATE entities SET name = ?, normalized_name = ?, type = ?, summary = ?, created_at = ? WHERE id = ?').run(e.name, normalizeName(e.name), e.type, e.summary, e.created_at, e.id);
      db.prepare('DELETE FROM entity_aliases WHERE entity_id = ?').run(e.id);
      const alias = db.prepare('INSERT INTO entity_aliases (entity_id, position, alias, normalized_alias) VALUES (?, ?, ?, ?)');
      e.aliases.forEach((a, i) => alias.run(e.id, i, a, normalizeName(a)));
      entities.indexNames(e);
    } else {
      entities.create(e);
    }
  }
  const insertEpisode = db.prepare('INSERT INTO episodes (id, conversation_id, role, content, reference_time, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const writeEpisodes = () => {
    for (const e of doc.episodes) {
      if (replace && exists.episode(e.id)) {
        // Episodes are append-only in use; --replace rewrites the row in place (facts may cite it) and its FTS entry.
        const old = db.prepare<[string], { rowid: number; content: string }>('SELECT rowid, content FROM episodes WHERE id = ?').get(e.id)!;
        db.prepare("INSERT INTO episodes_fts (episodes_fts, rowid, content) VALUES ('delete', ?, ?)").run(old.rowid, old.content);
        db.prepare('DELETE FROM episodes_cjk WHERE rowid = ?').run(old.rowid);
        db.prepare('UPDATE episodes SET conversation_id = @conversation_id, role = @role, content = @content, reference_time = @reference_time, created_at = @created_at WHERE id = @id').run(e);
        db.prepare("INSERT INTO fts_queue (kind, row) VALUES ('episode', ?)").run(old.rowid);
        continue;
      }
      insertEpisode.run(e.id, e.conversation_id, e.role, e.content, e.reference_time, e.created_at);
    }
  };
  // With a helper, a worker writes episodes and fact_episodes meanwhile (bulk-load-helper.ts).
  if (!helper) writeEpisodes();
  for (let i = 0; i < doc.facts.length; i++) {
    const f = doc.facts[i]!;
    const referenceTime = referenceTimes[i];
    const row = {
      id: f.id,
      lineage_id: lineage(f.id),
      subject_id: entityId(f.subject_id),
      predicate: f.predicate,
      object_id: f.object_id === null ? null : entityId(f.object_id),
      object_literal: f.object_id === null ? f.object : null,
      fact: f.fact,
      cardinality: f.cardinality,
      valid_at: f.valid_at,
      invalid_at: f.invalid_at,
      end_kind: endKindOf(f, docFacts, rows),
      reference_time: referenceTime ?? f.valid_at,
      created_at: f.created_at,
      expired_at: f.expired_at,
      invalidated_by: f.invalidated_by,
      supersedes: f.supersedes,
      origin: f.origin,
    };
    rows.insert(row, helper ? [] : f.episode_ids);
    // The format carries facts, not the claims behind them: each live fact becomes one claim.
    if (f.expired_at === null) {
      const stated = row.end_kind === 'explicit' || row.end_kind === 'judged';
      ctx.claims.insert({
        fact_id: f.id,
        subject_id: row.subject_id,
        predicate: f.predicate,
        object_id: row.object_id,
        object_literal: row.object_literal,
        fact: f.fact,
        cardinality: f.cardinality,
        valid_at: f.valid_at,
        reference_time: row.reference_time,
        end_at: stated ? f.invalid_at : null,
        end_kind: stated ? (row.end_kind as 'explicit' | 'judged') : null,
        end_by: stated ? f.invalidated_by : null,
        episode_ids: JSON.stringify(f.episode_ids),
        origin: f.origin,
      });
    }
  }
  bulkLoad?.finish(() => {
    writeEpisodes();
    for (const f of doc.facts) for (const e of f.episode_ids) rows.link(f.id, e);
  });
  // Facts about a joined entity may meet the memory's own in a slot (two managers at once): the
  // rules resolve each such slot from all its claims, as if the facts had arrived one by one.
  const joinedIds = new Set(joined.values());
  const slots = new Map<string, { subjectId: string; predicate: string }>();
  if (joinedIds.size) for (const f of doc.facts) {
    const subjectId = entityId(f.subject_id);
    if (f.expired_at === null && joinedIds.has(subjectId)) slots.set(`${subjectId}\u0000${f.predicate}`, { subjectId, predicate: f.predicate });
  }
  for (const slot of slots.values()) ctx.slots.refresh(slot.subjectId, slot.predicate);
  return { conversations: doc.conversations.length, episodes: doc.episodes.length, entities: doc.entities.length, facts: doc.facts.length, replaced: clashes.length, merged: joined.size };
}

/**
 * Document entities that are already in the memory under another id: the user (whatever the
 * document calls it), and entities whose name or alias and type match an existing one.
 */
function joinExistingEntities(docEntities: EntityRecord[], entities: EntityStore, exists: StoreLookups): Map<string, string> {
  const joined = new Map<string, string>();
  if (!entities.any()) return joined;
  for (const e of docEntities) {
    if (exists.entity(e.id)) continue; // same id: a clash, refused or replaced
    const match = e.type === 'user' ? entities.find(USER_ENTITY_NAME) : entities.find(e.name);
    if (match && match.id !== e.id && match.type === e.type) joined.set(e.id, match.id);
  }
  return joined;
}

interface StoreLookups {
  conversation(id: string): boolean;
  episode(id: string): boolean;
  entity(id: string): boolean;
  fact(id: string): boolean;
  /** reference_time of a stored episode. */
  episodeTime(id: string): string | undefined;
}

/** Lookups of ids in the store; `factsAndEpisodes` false when the store is known to hold none. */
function storeLookups(db: Database, factsAndEpisodes: boolean): StoreLookups {
  const has = (table: string) => {
    const stmt = db.prepare<[string], 1>(`SELECT 1 FROM ${table} WHERE id = ?`).pluck();
    return (id: string) => stmt.get(id) !== undefined;
  };
  const none = () => false;
  const episodeTime = db.prepare<[string], string>('SELECT reference_time FROM episodes WHERE id = ?').pluck();
  return {
    conversation: has('conversations'),
    entity: has('entities'),
    episode: factsAndEpisodes ? has('episodes') : none,
    fact: factsAndEpisodes ? has('facts') : none,
    episodeTime: factsAndEpisodes ? (id) => episodeTime.get(id) : () => undefined,
  };
}

/** The items by id; a repeated id is refused with its place. */
function byUniqueId<T extends { id: string }>(items: T[], where: string): Map<string, T> {
  const byId = new Map<string, T>();
  for (const item of items) byId.set(item.id, item);
  if (byId.size !== items.length) {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      if (seen.has(item.id)) throw new MemoryInputError(`${where}.${i}.id: duplicate id ${item.id}`, `${where}.${i}.id`);
      seen.add(item.id);
    });
  }
  return byId;
}

/** A fact's chain starts at the version that supersedes nothing; cycles are refused. */
function lineageResolver(facts: Map<string, FactRecord>, rows: FactRows): (id: string) => string {
  const memo = new Map<string, string>();
  return (start) => {
    const path: string[] = [];
    let id = start;
    for (;;) {
      const known = memo.get(id);
      if (known) return settle(path, known);
      const doc = facts.get(id);
      if (!doc) {
        const stored = rows.byId(id);
        return settle(path, stored ? stored.lineage_id : id);
      }
      // A first version (most facts) is its own lineage: nothing to remember.
      if (doc.supersedes === null) return path.length ? settle(path, id) : id;
      if (path.includes(id)) throw new MemoryInputError(`facts: supersedes forms a cycle through ${id}`, 'facts.supersedes');
      path.push(id);
      id = doc.supersedes;
    }
  };
  function settle(path: string[], lineage: string): string {
    for (const p of path) memo.set(p, lineage);
    return lineage;
  }
}

function endKindOf(f: FactRecord, facts: Map<string, FactRecord>, rows: FactRows): EndKind {
  if (f.invalid_at === null) return 'open';
  if (f.invalidated_by === null) return 'explicit';
  const closer = facts.get(f.invalidated_by) ?? rows.byId(f.invalidated_by);
  return closer && closer.subject_id === f.subject_id && closer.predicate === f.predicate ? 'successor' : 'judged';
}
