/**
 * listFactPage: every filter (words, entity, predicate, as of, known at, history) is applied before
 * the limit, pages follow one another without gaps or repeats, and the total counts every match.
 * factDetails finds what a fact closed without reading other facts' versions.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const at = (day: string): IsoTime => toIsoUtc(`2026-${day}T00:00:00.000Z`);

function memory(): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
  // 300 facts about Sato's likes first, then the few others: a cut at 200 rows before filtering
  // would lose every one of them.
  m.facts.observe(Array.from({ length: 300 }, (_, i) => ({ subject: 'Sato', predicate: 'likes', object: `thing ${i}`, fact: `Sato likes thing ${i}.`, reference_time: new Date(Date.parse(at('01-01')) + i * 3_600_000).toISOString() })));
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: at('09-01'), cardinality: 'one' }]);
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: at('09-15'), cardinality: 'one' }]);
  m.facts.observe([{ subject: '田中さん', predicate: 'likes', object: '抹茶', fact: '田中さんは抹茶が好きです。', reference_time: at('09-03') }]);
  m.facts.observe([{ subject: 'me', predicate: 'knows', object: 'Sato', fact: 'I know Sato from school.', reference_time: at('09-04') }]);
  return m;
}

describe('a page of facts', () => {
  it('pages in order without gaps or repeats, with the total of every page', () => {
    const m = memory();
    const all = m.facts.list();
    expect(all).toHaveLength(303);
    const pages = [0, 1, 2, 3].map((i) => m.facts.page({ limit: 100, offset: i * 100 }));
    expect(pages.map((p) => p.total)).toEqual([303, 303, 303, 303]);
    expect(pages.map((p) => p.facts.length)).toEqual([100, 100, 100, 3]);
    expect(pages.flatMap((p) => p.facts.map((f) => f.id))).toEqual(all.map((f) => f.id));
    const newest = m.facts.page({ newestFirst: true, limit: 2 });
    expect(newest.facts.map((f) => f.object)).toEqual(['B', 'Sato']);
  });

  it('filters by entity, predicate and words before the limit', () => {
    const m = memory();
    expect(m.facts.page({ entity: 'Sato', limit: 200, offset: 200 })).toMatchObject({ total: 301 });
    expect(m.facts.page({ entity: 'Sato', predicate: 'knows', limit: 1 }).facts.map((f) => f.fact)).toEqual(['I know Sato from school.']);
    expect(m.facts.page({ predicate: 'manager', limit: 1 })).toMatchObject({ total: 1, facts: [{ object: 'B' }] });
    expect(m.facts.page({ predicate: 'manager', history: true, limit: 10 }).total).toBe(3);
    // Words: 3+ characters by trigram (any case), two CJK characters by pair, a short one by LIKE.
    expect(m.facts.page({ text: 'SCHOOL', limit: 5 }).facts.map((f) => f.fact)).toEqual(['I know Sato from school.']);
    expect(m.facts.page({ text: '抹茶', limit: 5 }).facts.map((f) => f.fact)).toEqual(['田中さんは抹茶が好きです。']);
    expect(m.facts.page({ text: 'thing 29', limit: 5 })).toMatchObject({ total: 13 }); // every word, anywhere: 29, 129, 229, 290–299
    expect(m.facts.page({ text: 'likes 7', limit: 500 }).facts.every((f) => f.fact.includes('7'))).toBe(true);
    expect(m.facts.page({ text: 'thing', entity: 'Sato', limit: 10, offset: 295 })).toMatchObject({ total: 300 });
    expect(m.facts.page({ text: 'nowhere to be found', limit: 5 })).toEqual({ facts: [], total: 0 });
    expect(m.facts.page({ entity: 'Nobody', limit: 5 })).toEqual({ facts: [], total: 0 });
  });

  it('applies as-of and known-at before the limit', () => {
    const m = memory();
    expect(m.facts.page({ asOf: at('09-10'), predicate: 'manager', limit: 1 })).toMatchObject({ total: 1, facts: [{ object: 'A', invalid_at: '2026-09-15T00:00:00.000Z' }] });
    const before = m.facts.list({ history: true, predicate: 'manager' }).find((f) => f.expired_at !== null)!;
    expect(m.facts.page({ knownAt: before.created_at, predicate: 'manager', limit: 5 })).toMatchObject({ total: 1, facts: [{ object: 'A', invalid_at: null }] });
  });

  it('finds the facts overlapping a valid-time range', () => {
    const m = memory();
    const overlapping = (from: string, to: string) => m.facts.list({ history: true, predicate: 'manager', overlapping: { from: at(from), to: at(to) } }).filter((f) => f.expired_at === null).map((f) => f.object);
    expect(overlapping('09-02', '09-10')).toEqual(['A']);
    expect(overlapping('09-10', '09-20')).toEqual(['A', 'B']);
    expect(overlapping('09-15', '09-20')).toEqual(['B']); // A ends where [09-15, …) begins
    expect(overlapping('08-01', '09-01')).toEqual([]); // A begins where […, 09-01) ends
  });
});

describe("a fact's page", () => {
  it('lists the live facts any version of it closed', () => {
    const m = memory();
    const b = m.facts.list({ predicate: 'manager' })[0]!;
    const closedA = m.facts.list({ history: true, predicate: 'manager' }).find((f) => f.object === 'A' && f.expired_at === null)!;
    const details = m.facts.details(b.id);
    expect(details.closed.map((f) => f.id)).toEqual([closedA.id]);
    expect(details.fact.id).toBe(b.id);
    const edited = m.facts.edit(b.id, { fact: 'My manager is B now.' });
    // The new version of B's chain: what its first version closed is still on its page.
    expect(m.facts.details(edited.id).closed.map((f) => f.object)).toEqual(['A']);
    expect(m.facts.details(closedA.id).closed).toEqual([]);
  });
});
