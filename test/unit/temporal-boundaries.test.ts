/**
 * The temporal rules pinned at their edges, through the real store (SQLite in memory):
 * - intervals are half-open on both axes: true on [valid_at, invalid_at), held on [created_at, expired_at);
 * - equal valid_at: the later message (reference_time) wins, whichever way the sentences sort;
 * - one `one` claim makes the whole (subject, predicate) a one-slot, whatever the others say.
 * Each case is probed exactly at the boundary and one millisecond either side.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { scriptedModel, type Script } from '../fixtures/scripted-model';
import type { FactRecord } from '../../shared/memory-schema';
import { isoFromMs, toIsoUtc, type IsoTime } from '../../shared/time';

const at = (d: string, h = 0): IsoTime => toIsoUtc(`2026-${d}T${String(h).padStart(2, '0')}:00:00.000Z`);
const shift = (iso: IsoTime, ms: number): IsoTime => isoFromMs(Date.parse(iso) + ms);

function fresh(): Memory {
  return openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') });
}

interface Said {
  object: string;
  fact: string;
  valid: string;
  said: string;
  until?: string;
  cardinality?: 'one' | 'many';
  predicate?: string;
}

function observation(s: Said) {
  return {
    subject: 'me',
    predicate: s.predicate ?? 'manager',
    object: s.object,
    fact: s.fact,
    reference_time: s.said,
    valid_at: s.valid,
    invalid_at: s.until ?? null,
    cardinality: s.cardinality ?? 'one',
  };
}

const objects = (facts: FactRecord[]) => facts.map((f) => f.object).sort();
const intervals = (facts: FactRecord[]) => facts.map((f) => [f.object, f.valid_at, f.invalid_at, f.cardinality]).sort((a, b) => String(a[1]).localeCompare(String(b[1])) || String(a[0]).localeCompare(String(b[0])));

describe('valid time is half-open: [valid_at, invalid_at)', () => {
  it('holds a fact with a stated end from its first millisecond to just before its end', () => {
    const m = fresh();
    m.facts.observe([observation({ object: 'A', fact: 'My manager is A.', valid: at('09-01'), said: at('09-01', 9), until: at('09-10') })]);
    expect(objects(m.facts.list({ asOf: shift(at('09-01'), -1) }))).toEqual([]);
    expect(objects(m.facts.list({ asOf: at('09-01') }))).toEqual(['A']);
    expect(objects(m.facts.list({ asOf: shift(at('09-10'), -1) }))).toEqual(['A']);
    expect(objects(m.facts.list({ asOf: at('09-10') }))).toEqual([]);
    m.close();
  });

  it('hands over at the successor\'s valid_at exactly: never both, never neither', () => {
    const m = fresh();
    m.facts.observe([observation({ object: 'A', fact: 'My manager is A.', valid: at('09-01'), said: at('09-01', 9) })]);
    m.facts.observe([observation({ object: 'B', fact: 'My manager is B.', valid: at('09-15'), said: at('09-15', 9) })]);
    expect(objects(m.facts.list({ asOf: shift(at('09-15'), -1) }))).toEqual(['A']);
    expect(objects(m.facts.list({ asOf: at('09-15') }))).toEqual(['B']);
    expect(objects(m.facts.list({ asOf: shift(at('09-15'), 1) }))).toEqual(['B']);
    m.close();
  });

  it('applies the same boundaries to closeFact and editFact', () => {
    const m = fresh();
    m.facts.observe([observation({ object: 'A', fact: 'My manager is A.', valid: at('09-01'), said: at('09-01', 9) })]);
    const closed = m.facts.close(m.facts.list()[0]!.id, at('09-20'));
    expect(closed.invalid_at).toBe(at('09-20'));
    expect(objects(m.facts.list({ asOf: shift(at('09-20'), -1) }))).toEqual(['A']);
    expect(objects(m.facts.list({ asOf: at('09-20') }))).toEqual([]);
    const edited = m.facts.edit(closed.id, { valid_at: at('09-05') });
    expect([edited.valid_at, edited.invalid_at]).toEqual([at('09-05'), at('09-20')]);
    expect(objects(m.facts.list({ asOf: shift(at('09-05'), -1) }))).toEqual([]);
    expect(objects(m.facts.list({ asOf: at('09-05') }))).toEqual(['A']);
    m.close();
  });
});

describe('an edit that makes a fact meet another fact of the same object', () => {
  it('merges the two and returns the merged fact (it used to fail with "has no live version")', () => {
    const m = fresh();
    m.facts.observe([observation({ object: 'A', fact: 'My manager is A.', valid: at('09-01'), said: at('09-01', 9) })]);
    m.facts.observe([observation({ object: 'B', fact: 'My manager is B.', valid: at('09-05'), said: at('09-05', 9) })]);
    const b = m.facts.list()[0]!;
    const edited = m.facts.edit(b.id, { object: 'A' });
    expect([edited.object, edited.valid_at, edited.invalid_at, edited.expired_at]).toEqual(['A', at('09-01'), null, null]);
    expect(intervals(m.facts.list({ history: true }).filter((f) => f.expired_at === null))).toEqual([['A', at('09-01'), null, 'one']]);
    expect(m.facts.get(edited.id)!.episode_ids).toHaveLength(2);
    m.close();
  });
});

describe('system time is half-open: [created_at, expired_at)', () => {
  it('shows the version the memory held at each millisecond, the replaced one up to just before it expired', () => {
    const m = fresh();
    m.facts.observe([observation({ object: 'A', fact: 'My manager is A.', valid: at('09-01'), said: at('09-01', 9) })]);
    const first = m.facts.list({ history: true })[0]!;
    m.facts.observe([observation({ object: 'B', fact: 'My manager is B.', valid: at('09-15'), said: at('09-15', 9) })]);
    const versions = m.facts.list({ history: true });
    const expired = versions.find((f) => f.id === first.id)!;
    expect(expired.expired_at).not.toBeNull();
    const e = expired.expired_at!;
    const held = (knownAt: IsoTime) => intervals(m.facts.list({ history: true, knownAt }));

    expect(held(shift(first.created_at, -1))).toEqual([]);
    expect(held(first.created_at)).toEqual([['A', at('09-01'), null, 'one']]);
    expect(held(shift(e, -1))).toEqual([['A', at('09-01'), null, 'one']]);
    expect(held(e)).toEqual([
      ['A', at('09-01'), at('09-15'), 'one'],
      ['B', at('09-15'), null, 'one'],
    ]);
    // knownAt without history keeps the valid-time default (now): what is true now, as known then
    expect(objects(m.facts.list({ knownAt: shift(e, -1) }))).toEqual(['A']);
    expect(objects(m.facts.list({ knownAt: e }))).toEqual(['B']);
    // and both axes at once, exactly at both boundaries
    expect(objects(m.facts.list({ knownAt: e, asOf: at('09-15') }))).toEqual(['B']);
    expect(objects(m.facts.list({ knownAt: shift(e, -1), asOf: at('09-15') }))).toEqual(['A']);
    m.close();
  });
});

describe('equal valid_at: the later message wins, whatever the sentences say', () => {
  // Both text orders: the later message's sentence sorting first, and sorting last.
  const cases = [
    { name: 'later sentence sorts last', early: 'A: my manager is A.', late: 'B: my manager is B.' },
    { name: 'later sentence sorts first', early: 'Z: my manager is A.', late: 'B: my manager is B.' },
  ];
  for (const c of cases) {
    for (const order of ['early first', 'late first'] as const) {
      it(`${c.name}, ${order}`, () => {
        const m = fresh();
        const early = observation({ object: 'A', fact: c.early, valid: at('09-01'), said: at('09-01', 9) });
        const late = observation({ object: 'B', fact: c.late, valid: at('09-01'), said: at('09-01', 18) });
        for (const o of order === 'early first' ? [early, late] : [late, early]) m.facts.observe([o]);
        expect(objects(m.facts.list())).toEqual(['B']);
        expect(objects(m.facts.list({ asOf: at('09-01') }))).toEqual(['B']);
        // the earlier message's fact was true for no time at all: [09-01, 09-01)
        const a = m.facts.list({ history: true }).filter((f) => f.object === 'A' && f.expired_at === null);
        expect(a.map((f) => [f.valid_at, f.invalid_at])).toEqual([[at('09-01'), at('09-01')]]);
        m.close();
      });
    }
  }

  it('merges two messages of the same fact and date into one fact that cites both, represented by the earlier message', () => {
    for (const texts of [['a: A is my manager.', 'b: My manager is A.'], ['b: A is my manager.', 'a: My manager is A.']]) {
      const m = fresh();
      m.facts.observe([observation({ object: 'A', fact: texts[1]!, valid: at('09-01'), said: at('09-01', 18) })]);
      m.facts.observe([observation({ object: 'A', fact: texts[0]!, valid: at('09-01'), said: at('09-01', 9) })]);
      const facts = m.facts.list();
      expect(facts.map((f) => [f.fact, f.episode_ids.length])).toEqual([[texts[0], 2]]);
      m.close();
    }
  });
});

describe('a slot of mixed cardinality', () => {
  const many = observation({ object: 'A', fact: 'A is one of my managers.', valid: at('09-01'), said: at('09-01', 9), cardinality: 'many' });
  const one = observation({ object: 'B', fact: 'My manager is B.', valid: at('09-10'), said: at('09-10', 9), cardinality: 'one' });
  for (const [name, order] of [['many first', [many, one]], ['one first', [one, many]]] as const) {
    it(`is a one-slot as soon as one claim says one (${name})`, () => {
      const m = fresh();
      for (const o of order) m.facts.observe([o]);
      expect(intervals(m.facts.list({ history: true }).filter((f) => f.expired_at === null))).toEqual([
        ['A', at('09-01'), at('09-10'), 'one'],
        ['B', at('09-10'), null, 'one'],
      ]);
      expect(objects(m.facts.list({ asOf: at('09-10') }))).toEqual(['B']);
      m.close();
    });
  }

  it('told in one write, is refused: one write gives one slot one cardinality (observe.ts oneCardinalityPerSlot)', () => {
    const m = fresh();
    expect(() => m.facts.observe([many, one])).toThrow(/^input:2: cardinality: "one", but input:1 is about the same slot \(me · manager\) and says "many" — /);
    expect(m.facts.list({ history: true })).toEqual([]);
    m.facts.observe([{ ...many, cardinality: 'one' }, one]);
    expect(intervals(m.facts.list({ history: true }).filter((f) => f.expired_at === null))).toEqual([
      ['A', at('09-01'), at('09-10'), 'one'],
      ['B', at('09-10'), null, 'one'],
    ]);
    m.close();
  });

  it('goes back to many when its one claim is forgotten', () => {
    const m = fresh();
    m.facts.observe([many]);
    const { episodeIds } = m.facts.observe([one]);
    m.messages.forget(episodeIds[0]!);
    expect(intervals(m.facts.list({ history: true }).filter((f) => f.expired_at === null))).toEqual([['A', at('09-01'), null, 'many']]);
    m.close();
  });

  it('keeps every object of an all-many slot open side by side', () => {
    const m = fresh();
    m.facts.observe([many, { ...one, cardinality: 'many' }]);
    expect(intervals(m.facts.list())).toEqual([
      ['A', at('09-01'), null, 'many'],
      ['B', at('09-10'), null, 'many'],
    ]);
    m.close();
  });
});

async function ingest(script: Script, messages: { content: string; time: string }[]) {
  const m = fresh();
  const model = scriptedModel(script);
  for (const msg of messages) {
    m.messages.append({ role: 'user', content: msg.content, time: msg.time, conversation: 'c1' });
    const worker = new IngestionWorker(m, { model: () => model });
    worker.start();
    await worker.whenIdle();
    await worker.stop();
  }
  return m;
}

describe('contradictions across slots (rule 3 by becameTrueFirst)', () => {
  // Two predicates the model judges contradictory; the messages may arrive in either order.
  const script: Script = {
    extract: {
      'I work at Acme.': [{ subject: 'me', subject_type: 'user', predicate: 'works_at', object: 'Acme', object_type: 'organization', fact: 'I work at Acme.', cardinality: 'one', since: at('09-01') }],
      'My employer is Globex.': [{ subject: 'me', subject_type: 'user', predicate: 'employer', object: 'Globex', object_type: 'organization', fact: 'My employer is Globex.', cardinality: 'one', since: at('09-01') }],
    },
    judge: () => 'contradiction',
  };
  const acme = (time: string) => ({ content: 'I work at Acme.', time });
  const globex = (time: string) => ({ content: 'My employer is Globex.', time });

  it('equal valid_at: the later message wins when it arrives last', async () => {
    const m = await ingest(script, [acme(at('09-01', 9)), globex(at('09-01', 18))]);
    expect(objects(m.facts.list({ asOf: at('09-01') }))).toEqual(['Globex']);
    expect(objects(m.facts.list())).toEqual(['Globex']);
    m.close();
  });

  it('equal valid_at: the later message wins when it arrives first', async () => {
    const m = await ingest(script, [globex(at('09-01', 18)), acme(at('09-01', 9))]);
    expect(objects(m.facts.list({ asOf: at('09-01') }))).toEqual(['Globex']);
    expect(objects(m.facts.list())).toEqual(['Globex']);
    m.close();
  });

  it('same valid_at and same message time: the one that arrives last wins', async () => {
    const m = await ingest(script, [acme(at('09-01', 9)), globex(at('09-01', 9))]);
    expect(objects(m.facts.list())).toEqual(['Globex']);
    m.close();
  });

  it('different valid_at: the one that became true later wins, whatever the arrival order', async () => {
    const later: Script = { ...script, extract: { ...script.extract, 'My employer is Globex.': [{ ...script.extract['My employer is Globex.']![0]!, since: at('09-05') }] } };
    for (const messages of [[acme(at('09-10')), globex(at('09-06'))], [globex(at('09-06')), acme(at('09-10'))]]) {
      const m = await ingest(later, messages);
      expect(intervals(m.facts.list({ history: true }).filter((f) => f.expired_at === null))).toEqual([
        ['Acme', at('09-01'), at('09-05'), 'one'],
        ['Globex', at('09-05'), null, 'one'],
      ]);
      m.close();
    }
  });
});
