/**
 * Export format version 3 (see docs/export-format.md and resources/tempora-memory.schema.json):
 * every record, and the claims behind each live fact. Vectors are derived, not exported.
 *
 * The document is streamed (openExportStream): its records are read from SQLite one row at a time
 * inside one read transaction — on a connection of its own where the store is a file, so the
 * snapshot holds while the memory goes on writing and the reader may pause between pieces (a page
 * pulling them over the bridge). Nothing holds the whole document: a million facts export in the
 * memory one piece takes. exportMemory (the document as one object) is the same stream parsed, for
 * small memories and tests.
 */
import Database, { type Database as Db } from 'better-sqlite3';
import { exportSectionChunks } from '../../../shared/export-json';
import { EXPORT_FORMAT, EXPORT_VERSION, type ClaimRecord, type EntityRecord, type MemoryExport } from '../../../shared/memory-schema';
import { sqliteBinding } from '../store/database/sqlite-binding';
import { CANCELLED_LANE } from '../store/ingestion-jobs';
import { FACT_RECORD_FROM, FACT_RECORD_SELECT, toFactRecord } from '../store/fact-rows';
import type { IsoTime } from '../../../shared/time';

/** How many records of each kind the export holds (counted in its snapshot, before the first piece). */
export interface ExportCounts {
  conversations: number;
  episodes: number;
  entities: number;
  facts: number;
  claims: number;
}

export interface ExportStream {
  readonly exportedAt: IsoTime;
  readonly counts: ExportCounts;
  /** All records (the sum of counts): the whole of `records` when done. */
  readonly totalRecords: number;
  /** Records written into the pieces so far. */
  readonly records: number;
  /** The document's pretty JSON in pieces of about `chunkChars` characters (joined: JSON.stringify(document, null, 2)), then null. */
  next(): string | null;
  /** Ends the read (its transaction, its connection); the stream then yields nothing. Safe to call twice. */
  close(): void;
}

/** Pieces of about this many characters (1 MiB): small enough for the bridge, large enough to be few. */
export const EXPORT_CHUNK_CHARS = 1 << 20;

/**
 * `nativeBinding`: the better-sqlite3 addon the memory was opened with (the reader opens with the same);
 * `onClose`: told once when the stream ends (read to the end, closed, or failed).
 */
export function openExportStream(db: Db, exportedAt: IsoTime, options: { chunkChars?: number; nativeBinding?: string; onClose?: () => void } = {}): ExportStream {
  const { chunkChars = EXPORT_CHUNK_CHARS, onClose } = options;
  // A store in memory has no file a second connection could open: its export must be read to the
  // end before the memory writes again (tests; the app's stores are files).
  const binding = sqliteBinding(options.nativeBinding);
  const reader = db.memory ? db : new Database(db.name, { readonly: true, fileMustExist: true, ...(binding ? { nativeBinding: binding } : {}) });
  if (reader !== db) reader.pragma('busy_timeout = 5000');
  const own = reader !== db;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    pieces.return(undefined);
    if (reader.inTransaction) reader.exec('COMMIT');
    if (own) reader.close();
    onClose?.();
  };
  let records = 0;
  const counted = function* <T>(rows: Iterable<T>): Generator<T> {
    for (const row of rows) {
      records++;
      yield row;
    }
  };
  let counts: ExportCounts;
  try {
    // The first read of the transaction fixes its snapshot: the counts and every record agree.
    reader.exec('BEGIN');
    counts = reader
      .prepare<[], ExportCounts>(
        `SELECT (SELECT count(*) FROM conversations) AS conversations, (SELECT count(*) FROM episodes) AS episodes,
          (SELECT count(*) FROM entities) AS entities, (SELECT count(*) FROM facts) AS facts,
          (SELECT count(*) FROM claims c JOIN facts f ON f.id = c.fact_id AND f.expired_at IS NULL) AS claims`,
      )
      .get()!;
  } catch (error) {
    if (reader.inTransaction) reader.exec('ROLLBACK');
    if (own) reader.close();
    throw error;
  }
  const pieces = exportSectionChunks(
    {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: exportedAt,
      conversations: counted(conversations(reader)),
      episodes: counted(episodes(reader)),
      entities: counted(entities(reader)),
      facts: counted(facts(reader)),
      claims: counted(claims(reader)),
    },
    chunkChars,
  );
  const totalRecords = counts.conversations + counts.episodes + counts.entities + counts.facts + counts.claims;
  return {
    exportedAt,
    counts,
    totalRecords,
    get records() {
      return records;
    },
    next() {
      if (!open) return null;
      try {
        const piece = pieces.next();
        if (!piece.done) return piece.value;
      } catch (error) {
        close();
        throw error;
      }
      close();
      return null;
    },
    close,
  };
}

/** The whole document as one object (the stream, parsed): for small memories and tests. */
export function exportMemory(db: Db, exportedAt: IsoTime): MemoryExport {
  const stream = openExportStream(db, exportedAt);
  const pieces: string[] = [];
  for (let piece = stream.next(); piece !== null; piece = stream.next()) pieces.push(piece);
  return JSON.parse(pieces.join('')) as MemoryExport;
}

/** Rows with the provenance of imported chat histories (migration 0011), exported only where set. */
type HistoryKind = NonNullable<MemoryExport['episodes'][number]['source']>['kind'];
type SourcedConversation = Omit<MemoryExport['conversations'][number], 'source' | 'learn'> & { source: HistoryKind | null; source_id: string | null; learn: number };
type SourcedEpisode = Omit<MemoryExport['episodes'][number], 'source'> & { source: HistoryKind | null; source_conversation_id: string | null; source_message_id: string | null };

function* conversations(db: Db): Generator<MemoryExport['conversations'][number]> {
  for (const { source, source_id, learn, ...c } of db.prepare<[], SourcedConversation>('SELECT id, title, created_at, source, source_id, learn FROM conversations ORDER BY created_at, id').iterate()) {
    yield {
      ...c,
      ...(source && source_id ? { source: { kind: source, id: source_id } } : {}),
      // Written only for a conversation that is not remembered: other documents stay as they were.
      ...(learn === 0 ? { learn: false as const } : {}),
    };
  }
}

/**
 * A message still waiting to be learned (its job not done) says so (`learned: false`), so the memory
 * importing it learns it: a memory moved to a new machine halfway through learning years of imported
 * history goes on with the rest. One in a history import whose learning the user cancelled says that
 * (`learned: 'cancelled'`): kept cancelled there, and the cancel can still be taken back.
 */
function* episodes(db: Db): Generator<MemoryExport['episodes'][number]> {
  // Looked up per message only where some job waits (a memory that has learned everything is read as it was).
  const waiting = db.prepare(`SELECT 1 FROM ingestion_jobs WHERE status <> 'done' LIMIT 1`).get() !== undefined;
  const unlearned = waiting ? `(SELECT max(CASE j.lane WHEN ${CANCELLED_LANE} THEN 2 ELSE 1 END) FROM ingestion_jobs j WHERE j.episode_id = e.id AND j.status <> 'done')` : 'NULL';
  const rows = db
    .prepare<[], SourcedEpisode & { unlearned: number | null }>(
      `SELECT e.id, e.conversation_id, e.role, e.content, e.reference_time, e.created_at, e.utc_offset, e.time_zone, e.source, e.source_conversation_id, e.source_message_id,
        ${unlearned} AS unlearned
      FROM episodes e ORDER BY e.created_at, e.id`,
    )
    .iterate();
  for (const { source, source_conversation_id, source_message_id, unlearned, ...e } of rows) {
    const sourced = source && source_conversation_id && source_message_id ? { ...e, source: { kind: source, conversation_id: source_conversation_id, message_id: source_message_id } } : e;
    yield unlearned === 1 ? { ...sourced, learned: false as const } : unlearned === 2 ? { ...sourced, learned: 'cancelled' as const } : sourced;
  }
}

function* entities(db: Db): Generator<EntityRecord> {
  const rows = db
    .prepare<[], Omit<EntityRecord, 'aliases'> & { aliases: string }>(
      `SELECT id, name, type, summary, created_at,
        (SELECT json_group_array(alias) FROM (SELECT alias FROM entity_aliases a WHERE a.entity_id = e.id ORDER BY position)) AS aliases
      FROM entities e ORDER BY created_at, id`,
    )
    .iterate();
  for (const row of rows) yield { ...row, aliases: JSON.parse(row.aliases) as string[] };
}

function* facts(db: Db): Generator<MemoryExport['facts'][number]> {
  for (const raw of db.prepare(`SELECT ${FACT_RECORD_SELECT} FROM ${FACT_RECORD_FROM} ORDER BY f.created_at, f.id`).iterate()) {
    yield toFactRecord(raw as Parameters<typeof toFactRecord>[0]);
  }
}

interface ClaimExportRow extends Omit<ClaimRecord, 'episode_ids'> {
  episode_ids: string;
}

/** The claims of the facts held now, in the order of their facts (as an import writes them), then as stored. */
function* claims(db: Db): Generator<ClaimRecord> {
  const rows = db
    .prepare<[], ClaimExportRow>(
      `SELECT c.fact_id, c.object_id, COALESCE(e.name, c.object_literal, '') AS object, c.fact, c.cardinality, c.valid_at, c.valid_at_precision,
        c.reference_time, c.end_at, c.end_precision, c.end_kind, c.end_by, c.episode_ids, c.origin, c.sync_id AS uid
      FROM claims c JOIN facts f ON f.id = c.fact_id AND f.expired_at IS NULL LEFT JOIN entities e ON e.id = c.object_id
      ORDER BY f.created_at, f.id, c.id`,
    )
    .iterate();
  for (const c of rows) yield { ...c, episode_ids: JSON.parse(c.episode_ids) as string[] };
}
