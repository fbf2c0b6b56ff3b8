/**
 * What applying a Learning does (temporal/learn.ts through Memory.applyIngestion), and what each
 * write reports (SlotChanges: the change event and the summaries) and keeps (versions, ids). Plain
 * Learnings, no model: each rule of learn.ts and the resolver's keep-or-write decisions exactly.
 * Mutation testing (npm run mutation) pointed at each case here.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type LearnedFact, type Learning, type Memory, type SlotChanges } from '../../electron/memory/index';
import { resolveSlot, type Claim } from '../../electron/memory/temporal/temporal-rules';
import { storeOf } from '../../electron/memory/memory';
import type { FactRecord } from '../../shared/memory-schema';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const at = (d: string, h = 0): IsoTime => toIsoUtc(`2026-${d}T${String(h).padStart(2, '0')}:00:00.000Z`);

function fresh(): Memory {
  return openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') });
}

const usage = { modelCalls: 1, promptTokens: 1, completionTokens: 1 };

function learned(over: Partial<LearnedFact> & Pick<LearnedFact, 'object' | 'validAt'>): LearnedFact {
  return {
    subject: { kind: 'user' },
    predicate: 'manager',
    fact: `My manager is ${over.object.kind === 'literal' ? over.object.value : 'name' in over.object ? over.object.name : 'me'}.`,
    cardinality: 'one',
    validPrecision: 'instant',
    end: null,
    endsExisting: null,
    endPrecision: 'instant',
    fromAssistant: false,
    duplicateOf: null,
    contradicts: [],
    ...over,
  };
}

/** Appends a message and applies what it taught; returns the episode id and the changes. */
function teach(m: Memory, time: IsoTime, facts: LearnedFact[], extra: Partial<Learning> = {}, role: 'user' | 'assistant' = 'user') {
  const { episode, job } = m.messages.append({ role, content: `message at ${time} ${Math.random()}`, time, conversation: 'c1' });
  const changes = m.messages.applyIngestion(job!.id, { episodeId: episode.id, referenceTime: time, confirmedEpisodeId: null, facts, ...extra }, usage);
  return { episodeId: episode.id, changes };
}

const org = (name: string) => ({ kind: 'new' as const, name, type: 'organization' as const });
const live = (m: Memory) => m.facts.list({ history: true }).filter((f) => f.expired_at === null);
const spans = (facts: FactRecord[]) => facts.map((f) => [f.object, f.valid_at, f.invalid_at]).sort((a, b) => String(a[1]).localeCompare(String(b[1])) || String(a[0]).localeCompare(String(b[0])));
const byObject = (m: Memory, object: string) => live(m).find((f) => f.object === object)!;

describe('applyLearning', () => {
  it('cites the confirmed assistant message only for facts taken from it, and only while it exists', () => {
    const m = fresh();
    const said = m.messages.append({ role: 'assistant', content: 'Your manager is Acme?', time: at('09-01', 8), conversation: 'c1', learn: false }).episode.id;
    const a = teach(m, at('09-01', 9), [learned({ object: org('Acme'), validAt: at('09-01'), fromAssistant: true })], { confirmedEpisodeId: said });
    expect(byObject(m, 'Acme').episode_ids.sort()).toEqual([said, a.episodeId].sort());
    // not from the assistant: only the user's message
    const b = teach(m, at('09-02', 9), [learned({ predicate: 'dentist', object: org('Kato'), validAt: at('09-02'), fromAssistant: false })], { confirmedEpisodeId: said });
    expect(byObject(m, 'Kato').episode_ids).toEqual([b.episodeId]);
    // from the assistant, but no message confirmed (or it was forgotten meanwhile)
    const c = teach(m, at('09-03', 9), [learned({ predicate: 'gym', object: org('Gold'), validAt: at('09-03'), fromAssistant: true })]);
    expect(byObject(m, 'Gold').episode_ids).toEqual([c.episodeId]);
    const gone = teach(m, at('09-04', 9), [learned({ predicate: 'bank', object: org('Mizuho'), validAt: at('09-04'), fromAssistant: true })], { confirmedEpisodeId: 'epi_gone' });
    expect(byObject(m, 'Mizuho').episode_ids).toEqual([gone.episodeId]);
    expect(live(m).map((f) => f.origin)).toEqual(['extracted', 'extracted', 'extracted', 'extracted']);
    m.close();
  });

  it('keeps a literal object literal and an entity object an entity', () => {
    const m = fresh();
    teach(m, at('09-01', 9), [learned({ predicate: 'plays', cardinality: 'many', object: { kind: 'literal', value: 'tennis' }, validAt: at('09-01') }), learned({ object: org('Acme'), validAt: at('09-01') })]);
    const facts = live(m);
    expect(facts.find((f) => f.object === 'tennis')!.object_id).toBeNull();
    expect(facts.find((f) => f.object === 'Acme')!.object_id).toBe(m.entities.find('Acme')!.id);
    m.close();
  });

  it('resolves entity references: new ones with their type and no aliases, existing ones with or without a new alias, forgotten ones anew', () => {
    const m = fresh();
    teach(m, at('09-01', 9), [learned({ object: org('Acme'), validAt: at('09-01') })]);
    const acme = m.entities.find('Acme')!;
    expect([acme.type, acme.aliases, acme.summary]).toEqual(['organization', [], '']);
    teach(m, at('09-02', 9), [learned({ predicate: 'client', cardinality: 'many', object: { kind: 'existing', id: acme.id, name: 'ACME Corp', type: 'organization', addAlias: false }, validAt: at('09-02') })]);
    expect(m.entities.find('ACME Corp')).toBeUndefined();
    teach(m, at('09-03', 9), [learned({ predicate: 'partner', cardinality: 'many', object: { kind: 'existing', id: acme.id, name: 'Acme Inc', type: 'organization', addAlias: true }, validAt: at('09-03') })]);
    expect(m.entities.find('Acme Inc')!.id).toBe(acme.id);
    // an existing entity forgotten while the model worked: the name stands for a new entity again
    teach(m, at('09-04', 9), [learned({ predicate: 'supplier', cardinality: 'many', object: { kind: 'existing', id: 'ent_forgotten', name: 'Initech', type: 'organization', addAlias: true }, validAt: at('09-04') })]);
    const initech = m.entities.find('Initech')!;
    expect([initech.type, initech.aliases, initech.summary]).toEqual(['organization', [], '']);
    expect(byObject(m, 'Initech').object_id).toBe(initech.id);
    m.close();
  });

  it('closes the matching open fact for "stopped", at that time, and reports it', () => {
    const m = fresh();
    teach(m, at('09-01', 9), [learned({ predicate: 'plays', cardinality: 'many', object: { kind: 'literal', value: 'tennis' }, validAt: at('09-01') })]);
    teach(m, at('09-10', 9), [learned({ predicate: 'plays', cardinality: 'many', object: { kind: 'literal', value: 'golf' }, validAt: at('09-10') })]);
    const stop = (value: string, when: IsoTime) => learned({ predicate: 'plays', cardinality: 'many', object: { kind: 'literal', value }, validAt: at('09-20', 9), endsExisting: when });
    // golf started after the stop: nothing to close; squash was never open
    expect(teach(m, at('09-20', 9), [stop('golf', at('09-05')), stop('squash', at('09-05'))]).changes.closed).toEqual([]);
    // golf started exactly then: still nothing to close
    expect(teach(m, at('09-20', 10), [stop('golf', at('09-10'))]).changes.closed).toEqual([]);
    const { changes } = teach(m, at('09-20', 11), [stop('tennis', at('09-15'))]);
    expect(changes.closed).toHaveLength(1);
    expect(spans(live(m))).toEqual([
      ['tennis', at('09-01'), at('09-15')],
      ['golf', at('09-10'), null],
    ]);
    expect(m.jobs.totals()).toMatchObject({ factsClosed: 1 });
    m.close();
  });

  it('joins a duplicate into the stored fact\'s slot, whatever predicate the new claim named', () => {
    const m = fresh();
    teach(m, at('09-01', 9), [learned({ object: org('Acme'), validAt: at('09-01') })]);
    const stored = byObject(m, 'Acme');
    teach(m, at('09-05', 9), [learned({ predicate: 'boss', object: org('ACME'), validAt: at('09-05'), duplicateOf: stored.id, fact: 'My boss is ACME.' })]);
    const facts = live(m);
    expect(facts).toHaveLength(1);
    expect(facts[0]!.episode_ids).toHaveLength(2);
    m.close();
  });
});

describe('contradictions across slots', () => {
  it('closes the new claim at the earliest later contradicted fact, and the earlier ones at the new claim', () => {
    const m = fresh();
    const early = teach(m, at('09-01', 9), [learned({ predicate: 'works_at', object: org('Acme'), validAt: at('09-01') })]);
    teach(m, at('09-20', 9), [learned({ predicate: 'job', object: org('Initech'), validAt: at('09-20') })]);
    teach(m, at('09-10', 9), [learned({ predicate: 'employer', object: org('Globex'), validAt: at('09-10') })]);
    expect(early.changes.created).toHaveLength(1);
    const ids = live(m).map((f) => f.id).reverse();
    const { changes } = teach(m, at('09-12', 9), [learned({ predicate: 'company', object: org('Umbrella'), validAt: at('09-05'), contradicts: ['fct_missing', ...ids] })]);
    expect(changes.closed.length).toBeGreaterThan(0);
    expect(spans(live(m))).toEqual([
      ['Acme', at('09-01'), at('09-05')],
      ['Umbrella', at('09-05'), at('09-10')],
      ['Globex', at('09-10'), null],
      ['Initech', at('09-20'), null],
    ]);
    const umbrella = byObject(m, 'Umbrella');
    expect(umbrella.invalidated_by).toBe(byObject(m, 'Globex').id);
    expect(byObject(m, 'Acme').invalidated_by).toBe(umbrella.id);
    m.close();
  });

  it('keeps a stated end earlier than the contradicting fact, takes the judged end when the stated one is later, and keeps an equal stated end', () => {
    for (const [end, expected, judged] of [
      [at('09-08'), at('09-08'), false],
      [at('09-15'), at('09-10'), true],
      [at('09-10'), at('09-10'), false],
    ] as const) {
      const m = fresh();
      teach(m, at('09-10', 9), [learned({ predicate: 'employer', object: org('Globex'), validAt: at('09-10') })]);
      const globex = byObject(m, 'Globex');
      teach(m, at('09-12', 9), [learned({ predicate: 'company', object: org('Umbrella'), validAt: at('09-05'), end, contradicts: [globex.id] })]);
      const umbrella = byObject(m, 'Umbrella');
      expect([umbrella.invalid_at, umbrella.invalidated_by]).toEqual([expected, judged ? globex.id : null]);
      m.close();
    }
  });

  it('leaves an earlier contradicted fact that is already closed as it is', () => {
    const m = fresh();
    for (const end of [at('09-03'), at('09-09')]) {
      const m2 = fresh();
      teach(m2, at('09-01', 9), [learned({ predicate: 'works_at', object: org('Acme'), validAt: at('09-01'), end })]);
      const acme = byObject(m2, 'Acme');
      teach(m2, at('09-12', 9), [learned({ predicate: 'company', object: org('Umbrella'), validAt: at('09-05'), contradicts: [acme.id] })]);
      const after = byObject(m2, 'Acme');
      expect([after.id, after.invalid_at, after.invalidated_by]).toEqual([acme.id, end, null]);
      m2.close();
    }
    m.close();
  });
});

describe('what a write reports and keeps', () => {
  const obs = (object: string, valid: string, over: Record<string, unknown> = {}) => ({ subject: 'me', predicate: 'manager', object, fact: `My manager is ${object}.`, reference_time: at(valid.slice(5, 10), 9), valid_at: valid, cardinality: 'one', ...over });

  it('reports exactly the versions written, created, expired, closed and confirmed', () => {
    const m = fresh();
    const events: SlotChanges[] = [];
    m.onChange((c) => {
      if (c.kind === 'facts') events.push(c.changes);
    });
    expect(m.facts.observe([obs('A', at('09-01'))])).toMatchObject({ factsAdded: 1, factsClosed: 0, factsConfirmed: 0 });
    const a = live(m)[0]!;
    expect(events.at(-1)).toEqual({ inserted: [a.id], created: [a.id], expired: [], closed: [], confirmed: [] });
    expect(a.id).toMatch(/^fct_/);

    expect(m.facts.observe([obs('B', at('09-15'))])).toMatchObject({ factsAdded: 1, factsClosed: 1, factsConfirmed: 0 });
    const a2 = byObject(m, 'A');
    const b = byObject(m, 'B');
    expect(a2.id).toMatch(/^fct_/);
    expect(events.at(-1)).toEqual({ inserted: expect.arrayContaining([a2.id, b.id]), created: [b.id], expired: [a.id], closed: [a2.id], confirmed: [] });
    expect(events.at(-1)!.inserted).toHaveLength(2);

    // the same fact again: confirmed, nothing written
    expect(m.facts.observe([obs('B', at('09-15'), { reference_time: at('09-16', 9) })])).toMatchObject({ factsAdded: 0, factsClosed: 0, factsConfirmed: 1 });
    expect(events.at(-1)).toEqual({ inserted: [], created: [], expired: [], closed: [], confirmed: [b.id] });
    expect(byObject(m, 'B').id).toBe(b.id);

    // a closed fact re-closed elsewhere is not "closed" again; a forgotten neighbour leaves the rest as they are
    expect(m.facts.observe([obs('C', at('09-10'))])).toMatchObject({ factsAdded: 1, factsClosed: 0 });
    const versions = m.facts.list({ history: true }).length;
    m.facts.observe([{ ...obs('X', at('09-01')), subject: 'Sato' }]);
    m.facts.forget(byObject(m, 'X').id);
    expect(m.facts.list({ history: true })).toHaveLength(versions);
    m.close();
  });

  it('writes a new version when only the successor changes, and keeps one when nothing does', () => {
    const m = fresh();
    m.facts.observe([obs('A', at('09-01'))]);
    m.facts.observe([obs('B', at('09-05'))]);
    const b = byObject(m, 'B');
    expect(byObject(m, 'A').invalidated_by).toBe(b.id);
    // C on the same day, said earlier: A now hands over to C (for no time), C to B
    m.facts.observe([obs('C', at('09-05'), { reference_time: at('09-05', 1) })]);
    const c = byObject(m, 'C');
    expect([c.valid_at, c.invalid_at, c.invalidated_by]).toEqual([at('09-05'), at('09-05'), b.id]);
    expect(byObject(m, 'A').invalidated_by).toBe(c.id);
    expect(byObject(m, 'B').id).toBe(b.id);
    m.close();
  });

  it('rewrites a fact whose start moves earlier under the same sentence, and one whose slot turns one', () => {
    const m = fresh();
    m.facts.observe([obs('A', at('09-05'), { reference_time: at('09-06', 9) })]);
    m.facts.observe([obs('A', at('09-01'), { reference_time: at('09-06', 9) })]);
    expect(spans(live(m))).toEqual([['A', at('09-01'), null]]);
    expect(m.facts.list({ asOf: at('09-03') }).map((f) => f.object)).toEqual(['A']);

    m.facts.observe([obs('P', at('09-05'), { predicate: 'likes', cardinality: 'many' })]);
    m.facts.observe([obs('Q', at('09-01'), { predicate: 'likes', cardinality: 'one' })]);
    expect(live(m).filter((f) => f.predicate === 'likes').map((f) => [f.object, f.cardinality, f.invalid_at])).toEqual([
      ['Q', 'one', at('09-05')],
      ['P', 'one', null],
    ]);
    m.close();
  });

  it('reports a fact rewritten but still open as not closed, and keeps the earliest message as its reference time', () => {
    const m = fresh();
    m.facts.observe([obs('A', at('09-01'))]);
    const first = byObject(m, 'A');
    expect(m.facts.observe([obs('A', at('09-01'), { reference_time: at('09-01', 8), fact: 'A is my manager.' })])).toMatchObject({ factsAdded: 0, factsClosed: 0 });
    const a = byObject(m, 'A');
    expect(a.id).not.toBe(first.id);
    expect([a.fact, a.invalid_at]).toEqual(['A is my manager.', null]);
    // same sentence said again, earlier: only the reference time changes, and it is written
    m.facts.observe([obs('A', at('09-01'), { reference_time: at('09-01', 7), fact: 'A is my manager.' })]);
    expect(storeOf(m).rows.byId(byObject(m, 'A').id)!.reference_time).toBe(at('09-01', 7));
    m.close();
  });

  it('keeps a fact closed by a later version of its successor as it is', () => {
    const m = fresh();
    m.facts.observe([obs('A', at('09-01'))]);
    m.facts.observe([obs('B', at('09-05'))]);
    m.facts.observe([obs('C', at('09-10'))]);
    // A rewritten (an earlier message with another sentence) while B's live version is not B's first
    m.facts.observe([obs('A', at('09-01'), { reference_time: at('09-01', 8), fact: 'A is my manager.' })]);
    const a = byObject(m, 'A');
    expect(a.invalidated_by).toBe(byObject(m, 'B').id);
    const versions = m.facts.list({ history: true }).length;
    m.facts.observe([obs('D', at('09-20'))]);
    expect(byObject(m, 'A').id).toBe(a.id);
    // D wrote a version of C and D itself, nothing else
    expect(m.facts.list({ history: true })).toHaveLength(versions + 2);
    m.close();
  });

  it('merges two facts of the same object into one when what stood between them is forgotten', () => {
    const m = fresh();
    m.facts.observe([obs('A', at('09-01'))]);
    const { episodeIds } = m.facts.observe([obs('B', at('09-05'))]);
    m.facts.observe([obs('A', at('09-10'))]);
    expect(spans(live(m))).toEqual([
      ['A', at('09-01'), at('09-05')],
      ['B', at('09-05'), at('09-10')],
      ['A', at('09-10'), null],
    ]);
    m.messages.forget(episodeIds[0]!);
    expect(spans(live(m))).toEqual([['A', at('09-01'), null]]);
    expect(live(m)[0]!.episode_ids).toHaveLength(2);
    m.close();
  });

  it('keeps a judged end through later writes to its slot', () => {
    const m = fresh();
    teach(m, at('09-10', 9), [learned({ predicate: 'employer', object: org('Globex'), validAt: at('09-10') })]);
    const globex = byObject(m, 'Globex');
    teach(m, at('09-12', 9), [learned({ predicate: 'company', object: org('Umbrella'), validAt: at('09-05'), contradicts: [globex.id] })]);
    const umbrella = byObject(m, 'Umbrella');
    teach(m, at('09-13', 9), [learned({ predicate: 'company', cardinality: 'many', object: org('Hooli'), validAt: at('09-01'), end: at('09-02') })]);
    const after = byObject(m, 'Umbrella');
    expect([after.id, after.invalid_at, after.invalidated_by]).toEqual([umbrella.id, at('09-10'), globex.id]);
    expect(storeOf(m).rows.byId(after.id)!.end_kind).toBe('judged');
    m.close();
  });

  it('answers listFacts by entity (subject or object), factsByIds and factsClosedBy', () => {
    const m = fresh();
    m.facts.observe([obs('A', at('09-01'))]);
    m.facts.observe([obs('B', at('09-05'))]);
    m.facts.observe([{ ...obs('me', at('09-02')), subject: 'A', predicate: 'reports_to' }]);
    expect(m.facts.list({ entity: 'A', history: true }).filter((f) => f.expired_at === null).map((f) => `${f.subject}>${f.object}`).sort()).toEqual(['A>me', 'me>A']);
    expect(m.facts.list({ entity: 'Nobody' })).toEqual([]);
    const b = byObject(m, 'B');
    expect(m.facts.byIds([])).toEqual([]);
    expect(m.facts.byIds([b.id]).map((f) => f.id)).toEqual([b.id]);
    expect(m.facts.closedBy([b.id])).toEqual([{ hit: 0, id: byObject(m, 'A').id }]);
    m.close();
  });
});

describe('resolveSlot edges', () => {
  const claim = (objectKey: string, validAt: IsoTime, extra: Partial<Claim<string>> = {}): Claim<string> => ({ objectKey, validAt, referenceTime: validAt, end: null, text: objectKey, payload: objectKey, ...extra });
  const end = (d: string, kind: 'explicit' | 'judged' = 'explicit', by: string | null = null) => ({ at: at(d), kind, by });

  it('orders claims that differ only in their end: a stated end first, whichever order they come in', () => {
    const ended = claim('A', at('09-01'), { end: end('09-05') });
    const open = claim('A', at('09-01'));
    for (const input of [[ended, open], [open, ended]]) {
      expect(resolveSlot(input)[0]!.claims.map((c) => c.end?.at ?? null)).toEqual([at('09-05'), null]);
    }
  });

  it('keeps the latest stated end of a merged span, and the first of two equal ones', () => {
    expect(resolveSlot([claim('A', at('09-01'), { end: end('09-10') }), claim('A', at('09-03'), { end: end('09-05') })])[0]!.end).toEqual(end('09-10'));
    expect(resolveSlot([claim('A', at('09-01'), { end: end('09-05') }), claim('A', at('09-03'), { end: end('09-10') })])[0]!.end).toEqual(end('09-10'));
    expect(resolveSlot([claim('A', at('09-01'), { end: end('09-05') }), claim('A', at('09-03'), { end: end('09-05', 'judged', 'fct_x') })])[0]!.end).toEqual(end('09-05'));
  });

  it('does not make a successor of the next object when the span ends exactly where it starts', () => {
    const spans = resolveSlot([claim('A', at('09-01'), { end: end('09-05') }), claim('B', at('09-05'))]);
    expect(spans.map((s) => s.end)).toEqual([end('09-05'), null]);
  });

  it('does not reach back over a gap to an earlier span of the same object', () => {
    const spans = resolveSlot([claim('A', at('09-01'), { end: end('09-05') }), claim('A', at('09-10'))]);
    expect(spans.map((s) => [s.validAt, s.end])).toEqual([
      [at('09-01'), end('09-05')],
      [at('09-10'), null],
    ]);
  });
});
