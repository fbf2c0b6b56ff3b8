/**
 * Full-text search keeps the words that decide the answer, also where they are common: at 10k
 * observations "work" is in thousands of facts (works_at is 15% of them), far past the share at
 * which search used to drop a word, and "Where does X work?" must still find X's employer, not just
 * X's facts. Real SQLite: the generated memory of the evaluation, imported.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FactRecord } from '../../shared/memory-schema';
import type { Memory } from '../../electron/memory/index';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { buildScaleMemory } from '../eval/scale-memory';

let memory: Memory;
let live: FactRecord[];

beforeAll(() => {
  const built = buildScaleMemory(10_000);
  memory = built.memory;
  live = built.document.facts.filter((f) => f.expired_at === null);
});

const current = (subject: string, predicate: string) => live.filter((f) => f.subject === subject && f.predicate === predicate && f.invalid_at === null);
/** English-speaking people with exactly one current fact of the predicate, the first few. */
function people(predicate: string, n: number): { name: string; answer: FactRecord }[] {
  const names = [...new Set(live.filter((f) => /^[A-Z][a-z]+ [A-Z]\. [A-Z]/.test(f.subject)).map((f) => f.subject))].sort();
  return names.flatMap((name) => (current(name, predicate).length === 1 ? [{ name, answer: current(name, predicate)[0]! }] : [])).slice(0, n);
}

describe('a common word decides among one person’s facts', () => {
  it('is common here: "work" is in more than 5% of the facts, and each person has dozens of facts', () => {
    const withWork = live.filter((f) => /work/i.test(`${f.fact} ${f.predicate}`)).length;
    expect(withWork / live.length).toBeGreaterThan(0.05);
    const [someone] = people('works_at', 1);
    expect(live.filter((f) => f.subject === someone!.name).length).toBeGreaterThan(20);
  });

  it.each([
    ['works_at', (n: string) => `Where does ${n} work?`],
    ['lives_in', (n: string) => `Where does ${n} live?`],
    ['manager', (n: string) => `Who is ${n}'s manager?`],
  ] as const)('%s: the current fact comes first', (predicate, ask) => {
    for (const { name, answer } of people(predicate, 5)) {
      expect(memory.facts.search(ask(name), { limit: 10 })[0]?.fact.id, ask(name)).toBe(answer.id);
    }
  });

  it('in Japanese too: 働いて among the person’s facts', () => {
    const ja = [...new Set(live.filter((f) => /^[\u4e00-\u9fff]+$/u.test(f.subject)).map((f) => f.subject))].sort();
    const asked = ja.flatMap((name) => (current(name, 'works_at').length === 1 ? [{ name, answer: current(name, 'works_at')[0]! }] : [])).slice(0, 5);
    expect(asked.length).toBe(5);
    for (const { name, answer } of asked) expect(memory.facts.search(`${name}さんはどこで働いていますか？`, { limit: 10 })[0]?.fact.id, name).toBe(answer.id);
  });

  it('without a whole name: "Where does <first name> work?" finds the work facts of everyone of that name', () => {
    const name = people('works_at', 1)[0]!.name;
    const first = name.split(' ')[0]!;
    const expected = live.filter((f) => f.subject.startsWith(`${first} `) && f.predicate === 'works_at' && f.invalid_at === null).map((f) => f.id);
    expect(expected.length).toBeGreaterThan(0);
    const hits = memory.facts.search(`Where does ${first} work?`, { limit: 10 });
    expect(hits[0]!.fact.predicate).toBe('works_at');
    // The full-text retriever's own list: the work facts of every Aaron before any other fact.
    const text = memory.facts.searchLists(`Where does ${first} work?`, { limit: 10 }).text!;
    expect([...text.slice(0, expected.length)].sort()).toEqual([...expected].sort());
  });
});

describe('a word no fact holds does not silence the others', () => {
  it('"Has anyone visited Iceland lately-ish?" still finds visits to Iceland', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-06-01T00:00:00.000Z') });
    const people = Array.from({ length: 40 }, (_, i) => `Person${String(i).padStart(2, '0')}`);
    m.facts.observe(people.map((p, i) => ({ subject: p, predicate: 'visited', object: i % 4 === 0 ? 'Iceland' : 'Rome', fact: `${p} visited ${i % 4 === 0 ? 'Iceland' : 'Rome'}.`, reference_time: '2026-05-01T00:00:00Z', cardinality: 'many' })));
    const hits = m.facts.search('Has anyone visited Iceland, zqxjv?', { limit: 10 });
    expect(hits.length).toBe(10);
    expect(hits.every((h) => h.fact.fact.includes('Iceland'))).toBe(true);
    m.close();
  });
});
