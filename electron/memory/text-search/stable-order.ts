/**
 * Equal scores are broken by a fixed key, so the same question over the same memory always gives
 * the same answer and the same context — also over a copy of the memory built again, whose ids
 * differ (ids are time + random bytes, so ordering by id reorders ties from one build to the next).
 *
 * The key is the fact's own content: valid time, newest first (of two equally good facts, the more
 * recent one is the likelier answer, and it is what a reader of the list expects first), then the
 * sentence (so two facts told at the same moment still have one order), and only then the id — two
 * live facts with the same valid time and the same sentence are the same statement, whichever
 * comes first. The fusion (search.ts) and the full-text second pass order by it; inside a
 * retriever's SQL, where reading the sentence of every matched row would cost, equal rows are
 * ordered by valid time and rowid (the order rows were stored in: the same for a memory built the
 * same way, and no id in it).
 */
import type { IsoTime } from '../../../shared/time';

export interface TieKey {
  id: string;
  valid_at: IsoTime;
  /** The fact's sentence (or an episode's content). */
  fact: string;
}

/** valid_at descending, then sentence, then id: for sort() after the score. */
export function compareTieKeys(a: TieKey, b: TieKey): number {
  if (a.valid_at !== b.valid_at) return a.valid_at < b.valid_at ? 1 : -1;
  if (a.fact !== b.fact) return a.fact < b.fact ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The same key as SQL, after the score: for ORDER BY over `facts f` (or any row with these columns). */
export const TIE_ORDER_SQL = (alias: string, text = 'fact', time = 'valid_at') => `${alias}.${time} DESC, ${alias}.${text}, ${alias}.id`;
