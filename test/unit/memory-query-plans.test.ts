/**
 * The queries a screen makes read by index, never the whole facts table: every statement a call
 * prepares is explained (EXPLAIN QUERY PLAN) and none may scan a table (`facts` under any alias). The store
 * has no ANALYZE statistics, so a small memory is planned as a large one is.
 */
import type { Database } from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';
import { toIsoUtc, type IsoTime } from '../../shared/time';

/**
 * The table scans of the plans: "SCAN f", "SCAN facts USING COVERING INDEX …" — any table read
 * whole. Not scans of a subquery's rows (page, fe), of a constant row (a SELECT of subqueries), of a
 * virtual table (json_each, FTS5), or of
 * fts_queue (read LIMIT 1 before a text filter).
 */
function tableScans(plans: { sql: string; plan: string[] }[]): string[] {
  return plans.flatMap(({ sql, plan }) =>
    plan.filter((line) => /^SCAN (?!(page|fe|fts_queue|CONSTANT ROW)\b)\w+/.test(line) && !line.includes('VIRTUAL TABLE')).map((line) => `${line}  ← ${sql.replace(/\s+/g, ' ').slice(0, 120)}`),
  );
}

const at = (day: string): IsoTime => toIsoUtc(`2026-${day}T00:00:00.000Z`);

describe('the queries of the screens use indexes', () => {
  let m: Memory;
  let db: Database;

  beforeEach(() => {
    // A fresh memory for each check: a statement prepared once is cached and would not be seen again.
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    db = databaseOf(m);
    m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: at('09-01'), cardinality: 'one' }]);
    m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: at('09-15'), cardinality: 'one' }]);
    m.facts.observe([{ subject: 'Sato', predicate: 'likes', object: 'tea', fact: 'Sato likes tea.', reference_time: at('09-02') }]);
  });

  const check = (run: () => unknown) => {
    const plans = plansOf(db, run);
    expect(plans.length).toBeGreaterThan(0);
    return { plans, scans: tableScans(plans) };
  };

  it('sees a full scan when there is one (the check can fail)', () => {
    const { scans } = check(() => db.prepare('SELECT count(*) FROM facts f WHERE f.fact LIKE ?').get('%tea%'));
    expect(scans).toHaveLength(1);
  });

  it('as of a time: by subject, all current facts, and the history as of it', () => {
    expect(check(() => m.facts.list({ subject: 'me', asOf: at('09-10') })).scans).toEqual([]);
    expect(check(() => m.facts.page({ asOf: at('09-10'), limit: 100 })).scans).toEqual([]);
    expect(check(() => m.facts.page({ asOf: at('09-10'), history: true, limit: 100 })).scans).toEqual([]);
    // The screens list the newest first: the same indexes, walked the other way.
    expect(check(() => m.facts.page({ newestFirst: true, limit: 200 })).scans).toEqual([]);
    expect(check(() => m.facts.page({ asOf: at('09-10'), newestFirst: true, limit: 100 })).scans).toEqual([]);
  });

  it('a page of listFacts with a subject, predicate or entity filter, and its total', () => {
    for (const query of [{ subject: 'me' }, { predicate: 'manager' }, { predicate: 'manager', history: true, newestFirst: true }, { entity: 'A', history: true }, { subject: 'me', text: 'manager' }, { predicate: 'likes', text: 'te' }]) {
      const { plans, scans } = check(() => m.facts.page({ ...query, limit: 50, offset: 50 }));
      expect(scans, JSON.stringify(query)).toEqual([]);
      expect(plans.some((p) => /count\(\*\)/.test(p.sql)), 'the total is counted').toBe(true);
    }
  });

  it('the same pages newest first, as the screens list them', () => {
    for (const query of [{ subject: 'me' }, { predicate: 'manager' }, { entity: 'A' }, { predicate: 'likes', text: 'te' }]) {
      expect(check(() => m.facts.page({ ...query, newestFirst: true, limit: 50, offset: 50 })).scans, JSON.stringify(query)).toEqual([]);
    }
  });

  it("a fact's page: its versions, sources, what closed it and what it closed", () => {
    const a = m.facts.list({ history: true, predicate: 'manager' }).find((f) => f.object === 'A' && f.expired_at === null)!;
    const b = m.facts.list({ predicate: 'manager' })[0]!;
    const { plans, scans } = check(() => {
      expect(m.facts.details(b.id).closed.map((f) => f.id)).toEqual([a.id]);
      m.facts.details(a.id);
    });
    expect(scans).toEqual([]);
    expect(plans.flatMap((p) => p.plan).some((line) => /facts_live_by_invalidated_by/.test(line))).toBe(true);
  });

  it('"what changed" and a slot\'s history: pages by index, also after a cursor and about one entity', () => {
    const lines = (plans: { plan: string[] }[]) => plans.flatMap((p) => p.plan).join('\n');
    const feed = check(() => m.facts.changeFeed({ limit: 1 }));
    expect(feed.scans).toEqual([]);
    expect(lines(feed.plans)).toMatch(/facts_live_by_valid_at/);
    expect(lines(feed.plans)).toMatch(/facts_live_stated_ends/);
    const cursor = m.facts.changeFeed({ limit: 1 }).next!;
    expect(check(() => m.facts.changeFeed({ limit: 1, cursor })).scans).toEqual([]);
    const about = check(() => m.facts.changeFeed({ entity: 'me', limit: 1, cursor }));
    expect(about.scans).toEqual([]);
    expect(lines(about.plans)).toMatch(/facts_live_by_subject_valid_at/);
    expect(lines(about.plans)).toMatch(/facts_live_stated_ends_by_subject/);
    const b = m.facts.list({ predicate: 'manager' })[0]!;
    const history = check(() => m.facts.slotHistory(b.id, { limit: 1, cursor: m.facts.changeFeed({ limit: 1 }).next! }));
    expect(history.scans).toEqual([]);
    expect(lines(history.plans)).toMatch(/facts_live_by_slot_time/);
  });

  it('the facts overlapping [t1, t2)', () => {
    const { plans, scans } = check(() => m.facts.page({ history: true, overlapping: { from: at('09-05'), to: at('09-20') }, limit: 100 }));
    expect(scans).toEqual([]);
    expect(plans.flatMap((p) => p.plan).some((line) => /facts_by_valid_at/.test(line))).toBe(true);
  });
});
