/**
 * Full-text index upkeep done row by row, in one place: facts' and episodes' inserted rows are
 * indexed through the queue triggers and flushFullText (fts-index.ts), or all at once by a bulk load
 * (transfer/bulk-load.ts); an episode an import rewrites in place (--replace) leaves the index and
 * is queued again. (An entity's names are indexed by the entity store: store/entity-names-index.ts.)
 */
import type { Database } from 'better-sqlite3';

/** Removes stored episode `id` from the full-text indexes, by its current content; returns its rowid. */
export function unindexEpisode(db: Database, id: string): number {
  const old = db.prepare<[string], { rowid: number; content: string }>('SELECT rowid, content FROM episodes WHERE id = ?').get(id)!;
  db.prepare("INSERT INTO episodes_fts (episodes_fts, rowid, content) VALUES ('delete', ?, ?)").run(old.rowid, old.content);
  db.prepare('DELETE FROM episodes_cjk WHERE rowid = ?').run(old.rowid);
  return old.rowid;
}

/** Queues the episode at `rowid` to be indexed (again) from its content. */
export function queueEpisodeIndexing(db: Database, rowid: number): void {
  db.prepare("INSERT INTO fts_queue (kind, row) VALUES ('episode', ?)").run(rowid);
}
