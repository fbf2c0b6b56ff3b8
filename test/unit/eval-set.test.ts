/**
 * The retrieval evaluation (test/eval, `npm run eval`) stays well-formed: enough questions in every
 * category, every expected fact resolves to exactly one fact of the built fixture, questions about
 * closed facts can reach them by design (or say why not), and the scorer counts right. No recall
 * thresholds here: the numbers are reported by `npm run eval`, not asserted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Memory } from '../../electron/memory/index';
import { detectQueryIntent } from '../../electron/assistant/retrieval/query-intent';
import { breakdown, cosineRanker, liveFacts, randomRanker, recallAtK, resolveFactRef, resolveQuestions, summarize, visibleOnAxes, type QuestionResult, type ResolvedQuestion } from '../eval/eval-set';
import { buildEvalMemory, FIXTURE_SESSIONS } from '../eval/fixture-memory';
import { CATEGORIES, EVAL_QUESTIONS } from '../eval/questions';

let memory: Memory;
let resolved: ResolvedQuestion[];

beforeAll(() => {
  memory = buildEvalMemory();
  resolved = resolveQuestions(memory, EVAL_QUESTIONS);
});

describe('the evaluation fixture', () => {
  it('is a multi-session, bilingual life with at least 120 facts, some of them closed by the rules', () => {
    const facts = liveFacts(memory);
    expect(facts.length).toBeGreaterThanOrEqual(120);
    expect(facts.filter((f) => f.invalid_at !== null).length).toBeGreaterThanOrEqual(20);
    expect(new Set(facts.map((f) => f.subject)).size).toBeGreaterThanOrEqual(10);
    expect(FIXTURE_SESSIONS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(FIXTURE_SESSIONS.map((s) => s.lang))).toEqual(new Set(['en', 'ja']));
    expect(facts.some((f) => /[\p{Script=Hiragana}\p{Script=Han}]/u.test(f.fact))).toBe(true);
  });

  it('lets the rules close one-cardinality facts: the manager chain is Tanaka → Sato → Yamamoto', () => {
    const managers = memory.facts.list({ subject: 'me', predicate: 'manager', history: true }).filter((f) => f.expired_at === null);
    expect(managers.map((f) => [f.object, f.invalid_at?.slice(0, 10) ?? null])).toEqual([
      ['Tanaka', '2025-09-15'],
      ['Sato', '2026-02-01'],
      ['Yamamoto', null],
    ]);
  });
});

describe('the evaluation questions', () => {
  it('has at least 100 questions with unique ids, and every category', () => {
    expect(EVAL_QUESTIONS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(EVAL_QUESTIONS.map((q) => q.id)).size).toBe(EVAL_QUESTIONS.length);
    for (const category of CATEGORIES) expect(EVAL_QUESTIONS.filter((q) => q.category === category).length, category).toBeGreaterThanOrEqual(10);
  });

  it('resolves every expected fact to exactly one fact id of the memory', () => {
    for (const question of resolved) {
      expect(question.expectedIds.length, question.id).toBeGreaterThan(0);
      expect(new Set(question.expectedIds).size, question.id).toBe(question.expectedIds.length);
      for (const id of question.expectedIds) expect(memory.facts.get(id)?.expired_at, `${question.id} ${id}`).toBeNull();
    }
  });

  it('covers the past and changes: closed facts, as-of questions, Japanese text', () => {
    const closed = new Set(liveFacts(memory).filter((f) => f.invalid_at !== null).map((f) => f.id));
    expect(resolved.filter((q) => q.expectedIds.some((id) => closed.has(id))).length).toBeGreaterThanOrEqual(20);
    expect(resolved.filter((q) => q.asOf !== undefined).length).toBeGreaterThanOrEqual(5);
    expect(resolved.filter((q) => q.category === 'japanese').every((q) => /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(q.query))).toBe(true);
  });

  it('asks only for facts the question can reach on its time axes, or says why not', () => {
    const now = memory.clock.now();
    for (const question of resolved) {
      const unreachable = question.expectedIds.filter((id) => !visibleOnAxes(memory.facts.get(id)!, question, now));
      if (question.asOf !== undefined) {
        expect(unreachable, `${question.id}: expected facts must be true as of ${question.asOf}`).toEqual([]);
      } else if (!question.tags?.includes('intent')) {
        expect(unreachable, `${question.id}: a closed fact needs a history cue (${JSON.stringify(detectQueryIntent(question.query))}), an asOf, or the 'intent' tag`).toEqual([]);
      } else {
        expect(unreachable.length, `${question.id} is tagged 'intent' but its facts are reachable`).toBeGreaterThan(0);
      }
    }
  });

  it('fails loudly when a reference names no fact or several', () => {
    expect(() => resolveFactRef(memory, { subject: 'me', predicate: 'manager', object: 'Nobody' })).toThrow(/no live facts match me manager "Nobody".*Tanaka/);
    expect(() => resolveFactRef(memory, { subject: 'me', predicate: 'manager', object: 'Tanaka', state: 'current' })).toThrow(/no live facts/);
    expect(() => resolveFactRef(memory, { subject: 'Nobody', predicate: 'manager', object: 'Tanaka' })).toThrow(/no entity/);
  });
});

describe('the scorer', () => {
  it('computes recall@k on a hand-made case', () => {
    const ranked = ['a', 'x', 'y', 'b', 'z', 'c'];
    expect(recallAtK(['a', 'b', 'c'], ranked, 1)).toBeCloseTo(1 / 3);
    expect(recallAtK(['a', 'b', 'c'], ranked, 5)).toBeCloseTo(2 / 3);
    expect(recallAtK(['a', 'b', 'c'], ranked, 10)).toBe(1);
    expect(recallAtK(['q'], ranked, 10)).toBe(0);
    expect(recallAtK(['a'], [], 5)).toBe(0);
    expect(recallAtK([], ranked, 5)).toBe(1);
  });

  it('averages recall and counts fully answered questions, by category and tag', () => {
    const result = (id: string, category: QuestionResult['category'], r5: number, r10: number, tags: QuestionResult['tags'] = []): QuestionResult => ({
      id, category, tags, query: id, asOf: null, historyCue: null, expectedIds: [], rankedIds: [], recall: { 5: r5, 10: r10 }, ms: 0,
    });
    const results = [result('1', 'current', 1, 1), result('2', 'current', 0.5, 1), result('3', 'past', 0, 0.5, ['cross-lingual'])];
    const all = summarize(results);
    expect(all.questions).toBe(3);
    expect(all.recall[5]).toBeCloseTo(0.5);
    expect(all.recall[10]).toBeCloseTo(2.5 / 3);
    expect(all.answered[5]).toBeCloseTo(1 / 3);
    expect(all.answered[10]).toBeCloseTo(2 / 3);
    const split = breakdown(results);
    expect(split.byCategory.current.recall[5]).toBeCloseTo(0.75);
    expect(split.byCategory.past.answered[10]).toBe(0);
    expect(split.byCategory.entity.questions).toBe(0);
    expect(split.byTag['cross-lingual']!.questions).toBe(1);
    expect(split.byTag.untagged!.questions).toBe(2);
  });

  it('ranks by cosine similarity, and the random floor is deterministic', async () => {
    const ranker = cosineRanker(
      [
        { id: 'x', vector: new Float32Array([1, 0]) },
        { id: 'y', vector: new Float32Array([0.7, 0.7]) },
        { id: 'z', vector: new Float32Array([-1, 0]) },
      ],
      async () => new Float32Array([0, 1]),
    );
    expect(await ranker.rank('q', 2)).toEqual(['y', 'x']);
    const a = await randomRanker(memory).rank('a', 30);
    expect(a).toHaveLength(30);
    expect(await randomRanker(memory).rank('b', 30)).toEqual(a);
  });
});

describe('the generated memories at scale', () => {
  it('asks questions whose answer key names live facts of the right subject and slot, in every category', async () => {
    const { scaleDocument, remapIds, OBSERVATIONS_PER_PERSON } = await import('../eval/scale-memory');
    const { scaleQuestions, SCALE_CATEGORIES } = await import('../eval/scale-questions');
    const document = scaleDocument(2_000);
    const byId = new Map(document.facts.map((f) => [f.id, f]));
    const questions = scaleQuestions(document);
    for (const category of SCALE_CATEGORIES) expect(questions.filter((q) => q.category === category).length, category).toBeGreaterThanOrEqual(5);
    for (const q of questions) {
      expect(q.expected.length, q.id).toBeGreaterThan(0);
      for (const id of q.expected) {
        const fact = byId.get(id)!;
        expect(fact.expired_at, q.id).toBeNull();
        expect(q.about.startsWith(fact.subject), `${q.id}: ${q.about}`).toBe(true);
        expect(q.about).toContain(fact.predicate);
        if (q.category === 'common-word') expect(fact.invalid_at, q.id).toBeNull();
      }
      if (q.category === 'period') expect(q.expected.some((id) => byId.get(id)!.invalid_at !== null), q.id).toBe(true);
    }
    // Folded people: a person has dozens of facts, so the top 10 of a question about them must choose.
    const perSubject = new Map<string, number>();
    for (const f of document.facts) perSubject.set(f.subject, (perSubject.get(f.subject) ?? 0) + 1);
    expect(Math.max(...perSubject.values())).toBeGreaterThan(OBSERVATIONS_PER_PERSON / 2);
    // The same document under other ids: nothing but the ids changes.
    const other = remapIds(document, 1);
    expect(other.facts.map((f) => f.id)).not.toEqual(document.facts.map((f) => f.id));
    expect(other.facts.map((f) => f.fact)).toEqual(document.facts.map((f) => f.fact));
    expect(new Set(other.facts.map((f) => f.id)).size).toBe(other.facts.length);
  });
});
