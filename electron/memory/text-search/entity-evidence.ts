/**
 * The entity retriever's own evidence: the facts of the people a question names, ordered by what
 * the text list does not weigh — not by the same rarity-weighted words (that would repeat the text
 * ranking under fusion), but by
 *   1. for a question naming two or more people ("What do Mia and Leo both like?"): facts that
 *      concern both of them (one names the other), then facts one of them shares with another of
 *      them (the same predicate and object: both like jazz);
 *   2. the relation the question asks for (asked-relations.ts: "works at" for "where … work");
 *   3. how many *different* question words the fact holds (each once, rare or common alike);
 *   4. how recently it was said (reference_time), then the fixed key of stable-order.ts.
 * Each person's own facts are read newest said first, and the facts pointing at them newest
 * stored first, both bounded: a person many facts point at ("coffee") has thousands of them.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import type { SqlFilter } from '../temporal/fact-query';
import { compareTieKeys } from './stable-order';
import { containmentScore, foldText, hasTerms, type QueryWeights } from './term-weights';
import type { IsoTime } from '../../../shared/time';

/** Own facts read per person (newest said first), and facts pointing at them (newest stored first). */
const OWN_ROWS = 400;
const POINTING_ROWS = 100;

interface Row {
  id: string;
  fact: string;
  predicate: string;
  subject_id: string;
  object_id: string | null;
  object_key: string;
  reference_time: IsoTime;
  valid_at: IsoTime;
}

interface Scored extends Row {
  both: number;
  shared: number;
  relation: number;
  words: number;
  /** Its place among its person's facts of equal standing: equals are taken from each person in turn. */
  turn: number;
}

/** What a fact has in common across the people named: it names two of them, or another of them has the same predicate and object. */
export interface Alike {
  both: number;
  shared: number;
}

/**
 * For facts of two or more people: which concern both (subject and object, or a name in the
 * sentence) and which one of them shares with another (the same predicate and object).
 */
export function alikeAcross(
  rows: readonly { id: string; fact: string; predicate: string; subject_id: string; object_id: string | null; object_key: string }[],
  people: readonly { id: string; names: string[] }[],
): Map<string, Alike> {
  const alike = new Map<string, Alike>();
  if (people.length < 2) return alike;
  const ids = new Set(people.map((p) => p.id));
  const holders = new Map<string, Set<string>>();
  for (const r of rows) {
    const key = `${r.predicate}\u0000${r.object_key}`;
    const set = holders.get(key) ?? new Set<string>();
    if (ids.has(r.subject_id)) set.add(r.subject_id);
    holders.set(key, set);
  }
  for (const r of rows) {
    const folded = foldText(r.fact, r.predicate);
    const named = people.filter((p) => p.id === r.subject_id || p.id === r.object_id || p.names.some((n) => n !== '' && folded.includes(n)));
    alike.set(r.id, { both: named.length > 1 ? 1 : 0, shared: (holders.get(`${r.predicate}\u0000${r.object_key}`)?.size ?? 0) > 1 ? 1 : 0 });
  }
  return alike;
}

const KANJI = /^\p{Script=Han}$/u;
const KATAKANA_PAIR = /^[\p{Script=Katakana}ー]{2}$/u;

/**
 * Every question word once, the people's own names left out (every fact of theirs holds them): a
 * Latin term, a short term; in Japanese each kanji and each pair of katakana — a pair holding a
 * particle (吾の, は誰) says nothing of the topic.
 */
export function distinctWords(weights: QueryWeights, names: readonly string[] = []): QueryWeights {
  const named = (w: string) => names.some((n) => n.split(/\s+/u).includes(w) || (!/^[\p{L}\p{N}]*$/u.test(n) && n.includes(w)) || (KANJI.test(w) && n.includes(w)));
  return {
    terms: weights.terms.filter(([t]) => !named(t)).map(([t]) => [t, 1]),
    short: weights.short.filter(([t]) => !named(t)).map(([t]) => [t, 1]),
    grams: weights.grams.filter(([g]) => (KANJI.test(g) || KATAKANA_PAIR.test(g)) && !named(g)).map(([g]) => [g, 1]),
  };
}

const compare = (a: Scored, b: Scored) =>
  b.both - a.both ||
  b.shared - a.shared ||
  b.relation - a.relation ||
  b.words - a.words ||
  a.turn - b.turn ||
  (a.reference_time === b.reference_time ? 0 : a.reference_time < b.reference_time ? 1 : -1) ||
  compareTieKeys(a, b);

/**
 * Facts of `people` (entities the question names, in its order), best evidence first, at most
 * `depth`. `names` are the people's names, case folded, for facts that name another of them.
 */
export function entityEvidence(
  db: Database,
  people: readonly { id: string; names: string[] }[],
  weights: QueryWeights,
  relations: ReadonlyMap<string, string>,
  filter: SqlFilter,
  depth: number,
): string[] {
  if (people.length === 0) return [];
  const conditions = filter.where.length ? ` AND ${filter.where.join(' AND ')}` : '';
  const columns = "f.id, f.fact, f.predicate, f.subject_id, f.object_id, COALESCE(f.object_id, lower(f.object_literal)) AS object_key, f.reference_time, f.valid_at";
  const own = cachedStatement(db, `SELECT ${columns} FROM facts f WHERE f.subject_id = @person${conditions} ORDER BY f.reference_time DESC, f.rowid DESC LIMIT ${OWN_ROWS}`);
  const pointing = cachedStatement(db, `SELECT ${columns} FROM facts f WHERE f.object_id = @person AND f.subject_id <> @person${conditions} ORDER BY f.rowid DESC LIMIT ${POINTING_ROWS}`);
  const words = distinctWords(weights, people.flatMap((p) => p.names));
  const counting = hasTerms(words);
  const seen = new Set<string>();
  const rows: (Row & { person: string })[] = [];
  for (const person of people) {
    for (const row of [...(own.all({ ...filter.params, person: person.id }) as Row[]), ...(pointing.all({ ...filter.params, person: person.id }) as Row[])]) {
      if (!seen.has(row.id)) rows.push({ ...row, person: person.id });
      seen.add(row.id);
    }
  }
  const alike = alikeAcross(rows, people);
  const scored: Scored[] = rows.map((row) => ({
    ...row,
    both: alike.get(row.id)?.both ?? 0,
    shared: alike.get(row.id)?.shared ?? 0,
    relation: relations.has(row.predicate) ? 1 : 0,
    words: counting ? containmentScore(foldText(row.fact, row.predicate), words) : 0,
    turn: 0,
  }));
  if (people.length > 1) takeTurns(scored, (s) => (s as Scored & { person: string }).person);
  // A question that says two things or more beyond the names ("the dog Elif's friend adopted"):
  // the facts holding none of them are no evidence, and would only repeat the text list's order of
  // the rest. Saying one thing or none ("my sister Yui", "Tell me about Mia"), all of them are.
  const evidence = (s: Scored) => s.both + s.shared + s.relation + s.words > 0;
  const said = words.terms.length + words.short.length + words.grams.length;
  if (said >= 2 && scored.some(evidence)) return scored.filter(evidence).sort(compare).slice(0, depth).map((s) => s.id);
  return scored
    .sort(compare)
    .slice(0, depth)
    .map((s) => s.id);
}

/** Numbers each fact's place among the facts of its person that stand equal to it, so equals alternate between people. */
export function takeTurns<T extends Omit<Scored, 'turn'> & { turn: number }>(scored: T[], personOf: (s: T) => string): void {
  const byRecency = [...scored].sort((a, b) => (a.reference_time === b.reference_time ? compareTieKeys(a, b) : a.reference_time < b.reference_time ? 1 : -1));
  const counters = new Map<string, number>();
  for (const s of byRecency) {
    const key = `${s.both}|${s.shared}|${s.relation}|${s.words}|${personOf(s)}`;
    const n = counters.get(key) ?? 0;
    s.turn = n;
    counters.set(key, n + 1);
  }
}
