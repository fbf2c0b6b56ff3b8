/** Export format version 2 (see README and resources/tempora-memory.schema.json). Vectors are derived, not exported. */
import type { Database } from 'better-sqlite3';
import { EXPORT_FORMAT, EXPORT_VERSION, type MemoryExport } from '../../../shared/memory-schema';
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
  };
}
