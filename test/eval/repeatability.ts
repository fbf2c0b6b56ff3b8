/**
 * The repeatability check: the same question over the same memory must give the same top 10, also
 * when the memory was built again and its facts got other ids (ids are random: a tie broken by id
 * would reorder). Hits are compared by what identifies them apart from ids.
 */
import type { FactRecord } from '../../shared/memory-schema';
import type { Memory } from '../../electron/memory/index';
import { retrieve } from '../../electron/assistant/retrieval/retrieve';
import { toIsoUtc } from '../../shared/time';
import { LIMIT } from './eval-set';
import type { EvalQuestion } from './questions';
import type { VectorRanker } from '../../electron/assistant/retrieval/retrieve';

/** A hit as sentence and valid time: the same on two builds of one memory, ids aside. */
export const signature = (f: Pick<FactRecord, 'fact' | 'valid_at' | 'invalid_at'>): string => `${f.fact} [${f.valid_at.slice(0, 10)}–${f.invalid_at?.slice(0, 10) ?? ''}]`;

export function sameList(x: readonly string[], y: readonly string[]): boolean {
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** FNV-1a, 32 bits: a fixed pseudo-random number for a string. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * A stand-in for the vector index that depends on content only: for each query, the live facts in
 * a pseudo-random order drawn from the query and each fact's sentence and valid time. Its list
 * fused with the text lists makes the ties a hybrid search has (text #3 and vector #3 score the
 * same), which are where an order by id shows.
 */
export function contentRanker(memory: Memory): VectorRanker {
  const facts = memory.facts.list({ history: true }).filter((f) => f.expired_at === null).map((f) => ({ id: f.id, key: signature(f) }));
  return {
    async rank(query, limit) {
      return facts
        .map((f) => ({ id: f.id, key: f.key, h: hash(`${query}\u0000${f.key}`) }))
        .sort((a, b) => a.h - b.h || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .slice(0, limit)
        .map((f) => f.id);
    },
  };
}

export interface Repeatability {
  questions: number;
  same: number;
  differing: { id: string; query: string; a: string[]; b: string[] }[];
}

/**
 * Every question on both memories, hybrid (with `contentRanker` for vectors) or full text: how many
 * give the same top 10.
 */
export async function fixtureRepeatability(a: Memory, b: Memory, questions: readonly EvalQuestion[], options: { hybrid?: boolean } = {}): Promise<Repeatability> {
  const result: Repeatability = { questions: questions.length, same: 0, differing: [] };
  const rankers = options.hybrid ? [contentRanker(a), contentRanker(b)] : [null, null];
  for (const question of questions) {
    const asOf = question.asOf ? toIsoUtc(question.asOf) : undefined;
    const [x, y] = await Promise.all([a, b].map(async (m, i) => (await retrieve(m, question.query, { asOf, limit: LIMIT, vectors: rankers[i] })).hits.map((h) => signature(h.fact))));
    if (sameList(x!, y!)) result.same++;
    else result.differing.push({ id: question.id, query: question.query, a: x!, b: y! });
  }
  return result;
}
