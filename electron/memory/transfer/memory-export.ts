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
    conversations: db.prepare('SELECT id, title, created_at FROM conversations ORDER BY created_at, id').all() as MemoryExport['conversations'],
    episodes: db
      .prepare('SELECT id, conversation_id, role, content, reference_time, created_at, utc_offset, time_zone FROM episodes ORDER BY created_at, id')
      .all() as MemoryExport['episodes'],
    entities: entities.all(),
    facts: db
      .prepare(`SELECT ${FACT_RECORD_SELECT} FROM ${FACT_RECORD_FROM} ORDER BY f.created_at, f.id`)
      .all()
      .map((raw) => toFactRecord(raw as Parameters<typeof toFactRecord>[0])),
    claims: exportClaims(db),
  };
}

interface ClaimExportRow extends Omit<ClaimRecord, 'episode_ids'> {
  episode_ids: string;
}

/** The claims of the facts held now, in the order they were stored (a slot's rule order is its own). */
function exportClaims(db: Database): ClaimRecord[] {
  return db
    .prepare<[], ClaimExportRow>(
      `SELECT c.fact_id, c.object_id, COALESCE(e.name, c.object_literal, '') AS object, c.fact, c.cardinality, c.valid_at, c.valid_at_precision,
        c.reference_time, c.end_at, c.end_precision, c.end_kind, c.end_by, c.episode_ids, c.origin
      FROM claims c JOIN facts f ON f.id = c.fact_id AND f.expired_at IS NULL LEFT JOIN entities e ON e.id = c.object_id
      ORDER BY c.id`,
    )
    .all()
    .map((c) => ({ ...c, episode_ids: JSON.parse(c.episode_ids) as string[] }));
}
