/**
 * Reciprocal rank fusion of the retrievers' ranked lists, each list weighed so the fusion is never
 * worse than its best part. The SQLite lists (text, entity, episode) have fixed weights. A list
 * from outside (vectors) is weighed by how much more its top agrees with the other lists' tops than
 * chance would: a weak or random vector list — its top no closer to the question's other evidence
 * than any facts drawn at random — keeps only a trace weight, enough to fill slots the other
 * lists leave empty and to break their ties, never enough to move one of their facts past another.
 * With nothing else to agree with (no word of the question matched), the vector list is all the
 * evidence there is, and counts whole.
 */
import { compareTieKeys, type TieKey } from './stable-order';

export type ScorePart = 'text' | 'entity' | 'episode' | 'vector';

export const RRF_K = 60;

/**
 * The retrievers' ranked lists (best first), and for the facts a second hop reached (second-hop.ts)
 * the first hit each was reached through: a list from outside that cannot see the hop (vectors
 * rank "Owen's new partner is Ruth" for "Where does Owen's partner work?", never Ruth's employer)
 * votes for the hop fact as for the fact it came through.
 */
export type SearchLists = Partial<Record<ScorePart, string[]>> & { reachedThrough?: Readonly<Record<string, string>> };

/**
 * The ranked lists alone, as agreementWeight and fuseRankings read them: every entry a list. A
 * SearchLists is refused by the compiler until its reachedThrough is taken off (search.ts fuse does):
 * counted as a list it would throw, or vote for ids that are no ranking.
 */
export type RankedLists = Partial<Record<ScorePart, string[]>> & { reachedThrough?: never };

/**
 * How much each retriever's vote counts at most. The text list judges the fact itself; the entity
 * and episode lists only say "about something the question names", and for observed facts the
 * episode repeats the sentence, so their votes weigh less. The vector list judges the fact's meaning
 * but sees neither the people a question reaches through another, nor its time, nor a language its
 * model does not read: measured with a real sentence encoder (docs/benchmarks.md, "Hybrid with a
 * real embedding model"), a whole vote pushed the evidence of multi-hop, two-people and temporal
 * questions out of the top 10 (conversation set at 10k, recall@10 0.975 → 0.941); at 0.35 hybrid
 * equals full text on every kind at @5 and @10 and still lifts the paraphrases full text cannot
 * reach (the fixture's 0.40 → 0.70). At most; agreementWeight lowers it for a list that agrees
 * with the others no better than chance.
 */
export const PART_WEIGHTS: Record<ScorePart, number> = { text: 1, vector: 0.35, entity: 0.5, episode: 0.5 };

/**
 * The weight a list that agrees with the others no better than chance keeps: its best vote
 * (TRACE_WEIGHT / 61) is smaller than the gap between two neighbouring ranks of any other list
 * within the first 100, so it orders only what the other lists leave equal or empty.
 */
export const TRACE_WEIGHT = 0.001;
/** The top of each list compared. */
export const AGREEMENT_DEPTH = 20;
/**
 * How unlikely the agreement must be by chance (-log10 of the hypergeometric tail): below
 * SURPRISE_FROM (1 in 1,000) the trace weight, from SURPRISE_FULL (1 in 100,000) the whole weight,
 * in between in proportion. Strict, because a category of 20 questions moves by 0.01 when one
 * question's list is trusted wrongly.
 */
const SURPRISE_FROM = 3;
const SURPRISE_FULL = 5;

export interface Fused {
  id: string;
  score: number;
  parts: Partial<Record<ScorePart, number>>;
}

/**
 * The weight of an outside list (`part`): how unlikely the overlap of its top with the other
 * lists' tops would be for facts drawn at random from `universe` (the hypergeometric tail), mapped
 * onto [TRACE_WEIGHT, PART_WEIGHTS[part]].
 */
export function agreementWeight(lists: RankedLists, part: ScorePart, universe: number): number {
  const own = (lists[part] ?? []).slice(0, AGREEMENT_DEPTH);
  const others = new Set<string>();
  for (const [p, ids] of Object.entries(lists) as [ScorePart, string[]][]) if (p !== part) for (const id of ids.slice(0, AGREEMENT_DEPTH)) others.add(id);
  const full = PART_WEIGHTS[part];
  // Nothing else found: this list is the only evidence.
  if (others.size === 0 || own.length === 0) return full;
  const observed = own.filter((id) => others.has(id)).length;
  const n = Math.max(Math.round(universe), others.size + own.length - observed);
  const surprise = -Math.log10(Math.max(1e-300, hypergeometricTail(n, others.size, own.length, observed)));
  const t = Math.min(1, Math.max(0, (surprise - SURPRISE_FROM) / (SURPRISE_FULL - SURPRISE_FROM)));
  return Math.max(TRACE_WEIGHT, t * full);
}

/** P(X >= x) for X the number of marked items among `draws` drawn from `n` items of which `marked` are marked. */
export function hypergeometricTail(n: number, marked: number, draws: number, x: number): number {
  if (x <= 0) return 1;
  const lnChoose = (a: number, b: number) => lnFactorial(a) - lnFactorial(b) - lnFactorial(a - b);
  const total = lnChoose(n, draws);
  let p = 0;
  for (let i = x; i <= Math.min(marked, draws); i++) {
    if (draws - i > n - marked) continue;
    p += Math.exp(lnChoose(marked, i) + lnChoose(n - marked, draws - i) - total);
  }
  return Math.min(1, p);
}

/** ln(k!) by Stirling's series (exact to double precision from k = 10; a table below). */
function lnFactorial(k: number): number {
  if (k < 10) {
    let f = 1;
    for (let i = 2; i <= k; i++) f *= i;
    return Math.log(f);
  }
  return k * Math.log(k) - k + 0.5 * Math.log(2 * Math.PI * k) + 1 / (12 * k) - 1 / (360 * k ** 3) + 1 / (1260 * k ** 5);
}

/**
 * Reciprocal rank fusion. Equal scores keep the order of first appearance (list by list, in the
 * order the lists are given — each of them in a fixed order); `tieKeys` then breaks them by the
 * fixed key instead, for the ids it knows. `weights` replaces PART_WEIGHTS for the parts it names.
 */
export function fuseRankings(lists: RankedLists, tieKeys?: ReadonlyMap<string, TieKey>, weights: Partial<Record<ScorePart, number>> = {}): Fused[] {
  const fused = new Map<string, Fused>();
  for (const [part, ids] of Object.entries(lists) as [ScorePart, string[]][]) {
    const weight = weights[part] ?? PART_WEIGHTS[part];
    ids.forEach((id, index) => {
      const entry = fused.get(id) ?? { id, score: 0, parts: {} };
      if (entry.parts[part] !== undefined) return;
      entry.parts[part] = index + 1;
      entry.score += weight / (RRF_K + index + 1);
      fused.set(id, entry);
    });
  }
  const entries = [...fused.values()];
  if (!tieKeys) return entries.sort((a, b) => b.score - a.score);
  return entries.sort((a, b) => {
    if (b.score !== a.score) return b.score - a.score;
    const ka = tieKeys.get(a.id);
    const kb = tieKeys.get(b.id);
    return ka && kb ? compareTieKeys(ka, kb) : 0;
  });
}
