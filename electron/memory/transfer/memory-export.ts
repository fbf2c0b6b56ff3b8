/**
 * Export format version 3 (see README and resources/tempora-memory.schema.json): every record, and
 * the claims behind each live fact. Vectors are derived, not exported.
 */
import type { Database } from 'better-sqlite3';
import { EXPORT_FORMAT, EXPORT_VERSION, type ClaimRecord, type MemoryExport } from '../../../shared/memory-schema';
import type { EntityStore } from '../store/entity-store';
import { FACT_RECORD_FROM, FACT_RECORD_SELECT, toFactRecord } from '../store/fact-rows';

export function exportMemory(db: Database, entities: EntityStore, exportedAt: string): MemoryExport {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: exportedAt,
    conversations: (db.prepare('SELECT id, title, created_at, source, source_id, learn FROM conversations ORDER BY created_at, id').all() as SourcedConversation[]).map(({ source, source_id, learn, ...c }) => ({
      ...c,
      ...(source && source_id ? { source: { kind: source, id: source_id } } : {}),
      // Written only for a conversation that is not remembered: other documents stay as they were.
      ...(learn === 0 ? { learn: false as const } : {}),
    })),
    episodes: (
      db
        .prepare('SELECT id, conversation_id, role, content, reference_time, created_at, utc_offset, time_zone, source, source_conversation_id, source_message_id FROM episodes ORDER BY created_at, id')
        .all() as SourcedEpisode[]
    ).map(({ source, source_conversation_id, source_message_id, ...e }) =>
      source && source_conversation_id && source_message_id ? { ...e, source: { kind: source, conversation_id: source_conversation_id, message_id: source_message_id } } : e,
    ),
    entities: entities.all(),
    facts: db
      .prepare(`SELECT ${FACT_RECORD_SELECT} FROM ${FACT_RECORD_FROM} ORDER BY f.created_at, f.id`)
      .all()
      .map((raw) => toFactRecord(raw as Parameters<typeof toFactRecord>[0])),
    claims: exportClaims(db),
  };
}

/** Rows with the provenance of imported chat histories (migration 0011), exported only where set. */
type HistoryKind = NonNullable<MemoryExport['episodes'][number]['source']>['kind'];
type SourcedConversation = Omit<MemoryExport['conversations'][number], 'source' | 'learn'> & { source: HistoryKind | null; source_id: string | null; learn: number };
type SourcedEpisode = Omit<MemoryExport['episodes'][number], 'source'> & { source: HistoryKind | null; source_conversation_id: string | null; source_message_id: string | null };

interface ClaimExportRow extends Omit<ClaimRecord, 'episode_ids'> {
  episode_ids: string;
}

/** The claims of the facts held now, in the order of their facts (as an import writes them), then as stored. */
function exportClaims(db: Database): ClaimRecord[] {
  return db
    .prepare<[], ClaimExportRow>(
      `SELECT c.fact_id, c.object_id, COALESCE(e.name, c.object_literal, '') AS object, c.fact, c.cardinality, c.valid_at, c.valid_at_precision,
        c.reference_time, c.end_at, c.end_precision, c.end_kind, c.end_by, c.episode_ids, c.origin
      FROM claims c JOIN facts f ON f.id = c.fact_id AND f.expired_at IS NULL LEFT JOIN entities e ON e.id = c.object_id
      ORDER BY f.created_at, f.id, c.id`,
    )
    .all()
    .map((c) => ({ ...c, episode_ids: JSON.parse(c.episode_ids) as string[] }));
}
