/**
 * The indexes a learned message writes (issue 29): every index of a claim, of a job and of a fact
 * version is written on every insert and every status change or expiry, so each must be one some
 * lookup needs. Migration 0028 dropped the two that only repeated the first columns of another, 0031
 * the two of facts that held what another holds; the lookups they served still search by index,
 * never a whole table.
 */
import type { Database, Statement } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf, storeOf } from '../../electron/memory/memory';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';
import { plansOf } from '../fixtures/query-plans';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const at = (day: string): IsoTime => toIsoUtc(`2026-${day}T00:00:00.000Z`);

/** Whole-table reads of these tables ("SCAN claims", not "SCAN … USING … INDEX"). */
function tableScans(plans: { sql: string; plan: string[] }[], tables: readonly string[]): string[] {
  return plans.flatMap(({ sql, plan }) => plan.filter((line) => tables.some((t) => new RegExp(`^SCAN ${t}\\b(?!.*INDEX)`).test(line))).map((line) => `${line}  ← ${sql.replace(/\s+/g, ' ').slice(0, 120)}`));
}

function indexesOf(db: Database, table: string): string[] {
  return db.prepare<[string], string>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name").pluck().all(table);
}

describe('the indexes a learned message writes', () => {
  let m: Memory;
  let db: Database;
  beforeEach(() => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    db = databaseOf(m);
  });
  afterEach(() => m.close());

  it('are only those some lookup needs: five per claim and one per judged end, two per job besides its keys', () => {
    // claims_by_sync_id (migration 0029): a claim's id on every device, unique; sync finds the claim
    // an "unclaim" record names by it, and the outbox packs claims by it. claims_by_end_by (0036,
    // partial: only judged ends name a fact): a forget finds the claims the forgotten fact ended.
    expect(indexesOf(db, 'claims')).toEqual(['claims_by_end_by', 'claims_by_fact', 'claims_by_object', 'claims_by_slot_time', 'claims_by_sync_id', 'claims_one_by_slot']);
    expect(indexesOf(db, 'ingestion_jobs')).toEqual(['ingestion_jobs_backfill_done', 'ingestion_jobs_by_lane']);
  });

  it("a slot's claims are still read by index when a write resolves it", () => {
    const plans = plansOf(db, () => {
      m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: at('09-01') }]);
      m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: at('09-01'), cardinality: 'one' }]);
      m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', reference_time: at('09-15'), cardinality: 'one' }]);
    });
    // The claim rows' own statements are prepared when the store opens: explained from their source.
    const held = Object.values(storeOf(m).claims).filter((v): v is Statement => typeof v === 'object' && v !== null && 'source' in v && 'reader' in v);
    const own = held.map((statement) => {
      const explain = db.prepare(`EXPLAIN QUERY PLAN ${statement.source}`);
      return { sql: statement.source, plan: (explain.all(...(statement.source.match(/\?/g) ?? []).map(() => null)) as { detail: string }[]).map((r) => r.detail) };
    });
    expect(own.some((p) => /FROM claims WHERE subject_id = \? AND predicate = \? ORDER BY id/.test(p.sql)), 'the slot read is among them').toBe(true);
    expect(tableScans([...plans, ...own], ['claims', 'c'])).toEqual([]);
  });

  it('the claims citing a message are found by index when it is forgotten (an undone learning and another device’s forget ask alike)', () => {
    // Each read every claim's message list (json_each over the whole table): ~100 ms a message at 1M claims.
    m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: at('09-01') }]);
    const episode = db.prepare<[], string>('SELECT id FROM episodes LIMIT 1').pluck().get()!;
    const plans = plansOf(db, () => m.messages.forget(episode));
    expect(plans.some((p) => /claim_episodes/.test(p.sql)), plans.map((p) => p.sql).join('\n')).toBe(true);
    expect(tableScans(plans, ['claims', 'c'])).toEqual([]);
  });

  it('the queue finds its jobs by status by index: claim, recover, count, park, retry', () => {
    const plans = plansOf(db, () => {
      const { job } = m.messages.append({ role: 'user', content: 'I live in Kyoto.', time: at('09-01'), conversation: 'c1' });
      m.jobs.recoverInterrupted();
      const claimed = m.jobs.claimNext()!;
      expect(claimed.id).toBe(job!.id);
      m.jobs.fail(claimed.id, 'no', { modelCalls: 0, promptTokens: 0, completionTokens: 0 });
      m.jobs.counts();
      m.jobs.parked();
      m.jobs.retryParked();
      m.jobs.totals();
      m.jobs.claimable();
    });
    expect(plans.length).toBeGreaterThan(5);
    expect(tableScans(plans, ['ingestion_jobs'])).toEqual([]);
  });
});

describe('the indexes a fact version writes', () => {
  let m: Memory;
  let db: Database;
  beforeEach(() => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    db = databaseOf(m);
  });
  afterEach(() => m.close());

  it('are only those some plan needs: nineteen, one per predicate and valid time for all versions', () => {
    // Migration 0031: facts_live_by_predicate (the vocabulary is read from live_predicates) and
    // facts_live_by_predicate_valid_at (the held part of facts_by_predicate_time) are gone.
    expect(indexesOf(db, 'facts')).toEqual([
      'facts_by_lineage', 'facts_by_object', 'facts_by_predicate_time', 'facts_by_subject_time', 'facts_by_valid_at',
      'facts_literal_values', 'facts_live_by_created_at', 'facts_live_by_invalid_at',
      'facts_live_by_invalidated_by', 'facts_live_by_predicate_invalid_at', 'facts_live_by_slot_end', 'facts_live_by_slot_time',
      'facts_live_by_subject_valid_at', 'facts_live_by_valid_at', 'facts_live_stated_ends', 'facts_live_stated_ends_by_subject',
      'facts_replaced_by_created_at', 'facts_replaced_by_expired_at', 'facts_replaced_by_invalid_at',
    ]);
  });

  it("a predicate's held facts are still read and counted from its index alone", () => {
    for (const [i, subject] of ['me', 'Aoki', 'Bea'].entries()) {
      m.facts.observe([{ subject, predicate: 'likes', object: 'tea', fact: `${subject} likes tea.`, reference_time: at(`09-0${i + 1}`) }]);
      m.facts.observe([{ subject, predicate: 'manager', object: 'A', fact: `${subject}'s manager is A.`, reference_time: at(`09-0${i + 1}`), cardinality: 'one' }]);
      m.facts.observe([{ subject, predicate: 'manager', object: 'B', fact: `${subject}'s manager is B.`, reference_time: at(`10-0${i + 1}`), cardinality: 'one' }]);
    }
    const all: { from: IsoTime; to: IsoTime } = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' };
    let managers = 0;
    const plans = plansOf(db, () => {
      managers = m.facts.list({ predicate: 'manager' }).length;
      timelineWindow(db, { ...all, filter: 'manager', rowLimit: 10, groups: { collapseAbove: 0 } });
    });
    expect(managers).toBe(3);
    const lines = plans.flatMap((p) => p.plan);
    expect(tableScans(plans, ['facts', 'f'])).toEqual([]);
    // The row filter's first and last start and its density's counts: the index, no row read.
    expect(lines.filter((l) => /facts_by_predicate_time/.test(l)).length).toBeGreaterThan(0);
    expect(lines.filter((l) => /USING INDEX facts_by_predicate_time/.test(l) && !/COVERING/.test(l)), lines.join('\n')).toEqual([
      'SEARCH f USING INDEX facts_by_predicate_time (predicate=? AND valid_at<?)',
    ]);
  });
});
