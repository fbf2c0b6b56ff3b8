/**
 * How many facts held now each subject and each predicate has, kept by triggers as facts are
 * written (migration 0015): the extraction prompt's vocabulary names the most talked-about entities
 * and the predicates in use, and counting them from the facts on every message grew with the
 * memory. A bulk load drops the triggers and counts once after
 * (transfer/bulk-load.ts).
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from './database/statement-cache';

/** The triggers that keep the counts (migration 0015 creates them; a bulk load drops and re-creates them). */
export const LIVE_COUNT_TRIGGERS = ['facts_live_count_insert', 'facts_live_count_delete', 'facts_live_count_update'] as const;

/**
 * Counts everything again from the facts (after a bulk load, and when the tables are created). The
 * predicates are counted in one pass over the table (NOT INDEXED): no index holds cardinality since
 * migration 0031, and walking one by predicate would read every row out of order.
 */
export function recountLiveFacts(db: Database): void {
  db.exec(`
    DELETE FROM live_subjects;
    DELETE FROM live_predicates;
    INSERT INTO live_subjects (subject_id, live) SELECT subject_id, COUNT(*) FROM facts WHERE expired_at IS NULL GROUP BY subject_id;
    INSERT INTO live_predicates (predicate, cardinality, live) SELECT predicate, cardinality, COUNT(*) FROM facts NOT INDEXED WHERE expired_at IS NULL GROUP BY predicate, cardinality;
  `);
}

/** The triggers that keep each conversation's message count (migration 0018). */
export const CONVERSATION_COUNT_TRIGGERS = ['episodes_count_insert', 'episodes_count_delete'] as const;

/** Counts every conversation's messages again, and the time its last one was said (after a bulk load). */
export function recountConversations(db: Database): void {
  db.exec(`
    UPDATE conversations SET
      message_count = (SELECT COUNT(*) FROM episodes e WHERE e.conversation_id = conversations.id),
      last_message_at = (SELECT MAX(e.reference_time) FROM episodes e WHERE e.conversation_id = conversations.id);
  `);
}

/** The subjects with the most facts held now, most first. */
export function mostTalkedAbout(db: Database, limit: number): string[] {
  return cachedStatement<[number], string>(db, 'SELECT subject_id FROM live_subjects ORDER BY live DESC, subject_id LIMIT ?').pluck().all(limit);
}

/** The predicates in use, most used first, each with its cardinality (`many` when any fact has it). */
export function predicatesInUse(db: Database, limit: number): { predicate: string; cardinality: 'one' | 'many' }[] {
  return cachedStatement<[number], { predicate: string; cardinality: 'one' | 'many' }>(
    db,
    'SELECT predicate, MIN(cardinality) AS cardinality FROM live_predicates GROUP BY predicate ORDER BY SUM(live) DESC, predicate LIMIT ?',
  ).all(limit);
}
