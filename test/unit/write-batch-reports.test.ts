/**
 * One version per write, and what each write reports (electron/memory/temporal/write-batch.ts): a
 * write reports only its own net changes; it never stores a version it also replaces, and every
 * pointer — judged ends of claims included — names a version that exists.
 */
import { describe, expect, it } from 'vitest';
import type { LearnedFact, Learning, Memory, MemoryChange, SlotChanges } from '../../electron/memory/index';
import { databaseOf, storeOf } from '../../electron/memory/memory';
import { all, day, fresh, live, liveOf } from '../fixtures/memory-reads';
import type { IsoTime } from '../../shared/time';

const line = (object: string, d: string, extra: Record<string, unknown> = {}) => ({
  subject: 'me',
  predicate: 'manager',
  object,
  fact: `My manager is ${object}.`,
  reference_time: day(d),
  cardinality: 'one',
  ...extra,
});

const usage = { modelCalls: 1, promptTokens: 1, completionTokens: 1 };

function learned(over: Partial<LearnedFact> & Pick<LearnedFact, 'validAt'>): LearnedFact {
  return {
    subject: { kind: 'user' },
    predicate: 'employment',
    object: { kind: 'literal', value: 'employed' },
    fact: 'I am employed.',
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

function teach(m: Memory, time: IsoTime, facts: LearnedFact[]): { episodeId: string; changes: SlotChanges } {
  const { episode, job } = m.messages.append({ role: 'user', content: `message at ${time}`, time, conversation: 'c1' });
  const learning: Learning = { episodeId: episode.id, referenceTime: time, confirmedEpisodeId: null, facts };
  return { episodeId: episode.id, changes: m.messages.applyIngestion(job!.id, learning, usage) };
}

describe('a write batch: each write reports its own changes only', () => {
  it('a write that failed half-way leaves nothing behind for the next write', () => {
    // What a write that rolled back gathered must not reach the next write.
    const m = fresh();
    const { episode, job } = m.messages.append({ role: 'user', content: 'two facts, the second impossible', time: day('02'), conversation: 'c1' });
    const learning: Learning = {
      episodeId: episode.id,
      referenceTime: day('02'),
      confirmedEpisodeId: null,
      facts: [learned({ validAt: day('01') }), learned({ predicate: 'lives_in', object: { kind: 'literal', value: 'Osaka' }, fact: 'I live in Osaka.', validAt: day('10'), end: day('05') })],
    };
    expect(() => m.messages.applyIngestion(job!.id, learning, usage)).toThrow(/ends .* before it starts/);
    expect(all(m)).toEqual([]);
    const summary = m.facts.observe([line('A', '03')]);
    expect(summary).toMatchObject({ factsAdded: 1, factsClosed: 0, factsConfirmed: 0 });
    expect(live(m).map((f) => f.object)).toEqual(['A']);
  });

  it('a confirmation is reported by its own write, not by the next one', () => {
    const m = fresh();
    m.facts.observe([line('A', '01')]);
    expect(m.facts.observe([line('A', '01')])).toMatchObject({ factsAdded: 0, factsConfirmed: 1 });
    expect(m.facts.observe([line('tennis', '02', { predicate: 'plays', fact: 'I play tennis.', cardinality: 'many' })])).toMatchObject({ factsAdded: 1, factsClosed: 0, factsConfirmed: 0 });
  });

  it('a fact created and said again by the same write is added, not confirmed', () => {
    const m = fresh();
    const summary = m.facts.observe([line('A', '01'), line('A', '05')]);
    expect(summary).toMatchObject({ factsAdded: 1, factsClosed: 0, factsConfirmed: 0 });
    expect(all(m)).toHaveLength(1);
    expect(liveOf(m, 'A').episode_ids).toHaveLength(2);
  });

  it("a write's change event names no version that the write both created and replaced", () => {
    const m = fresh();
    const changes: MemoryChange[] = [];
    m.onChange((change) => changes.push(change));
    m.facts.observe([line('A', '01'), line('B', '10')]);
    expect(changes).toHaveLength(1);
    const event = changes[0]!;
    if (event.kind !== 'facts') throw new Error(`expected a facts change, got ${event.kind}`);
    const ids = new Set(all(m).map((f) => f.id));
    expect(event.changes.expired).toEqual([]);
    expect(event.changes.inserted.sort()).toEqual([...ids].sort());
    expect(event.changes.created.sort()).toEqual([...ids].sort());
  });
});

describe('a write batch: a judged end names the final version of the fact that ended it', () => {
  it('a fact closed by a judgement against a fact the same message then changed points at the final version, now and after', () => {
    // The claim's judged end names the version that holds the judging claim once the write is
    // resolved, or the next resolution of the closed slot points at a version that does not exist.
    const m = fresh();
    teach(m, day('01'), [learned({ predicate: 'employer', object: { kind: 'literal', value: 'Acme' }, fact: 'I work at Acme.', validAt: day('01') })]);
    const acme = liveOf(m, 'Acme');
    // one message: "I have been unemployed since the 10th (which ended Acme); on the 20th I start a new job"
    teach(m, day('10'), [
      learned({ object: { kind: 'literal', value: 'unemployed' }, fact: 'I am unemployed.', validAt: day('10'), contradicts: [acme.id] }),
      learned({ object: { kind: 'literal', value: 'employed' }, fact: 'I am employed again.', validAt: day('20') }),
    ]);
    const unemployed = liveOf(m, 'unemployed');
    expect(unemployed).toMatchObject({ valid_at: day('10'), invalid_at: day('20') });
    const acme2 = liveOf(m, 'Acme');
    expect(acme2).toMatchObject({ invalid_at: day('10'), invalidated_by: unemployed.id });
    const ids = new Set(all(m).map((f) => f.id));
    const ends = databaseOf(m).prepare<[], { end_by: string }>("SELECT end_by FROM claims WHERE end_kind = 'judged'").all();
    expect(ends.length).toBeGreaterThan(0);
    for (const e of ends) expect(ids.has(e.end_by), `judged end by ${e.end_by}`).toBe(true);
    // Said again: Acme is unchanged (confirmed), and still closed by the unemployment that exists.
    const summary = m.facts.observe([{ subject: 'me', predicate: 'employer', object: 'Acme', fact: 'I work at Acme.', reference_time: day('01'), cardinality: 'one', object_type: 'literal' }]);
    expect(summary).toMatchObject({ factsAdded: 0, factsClosed: 0, factsConfirmed: 1 });
    expect(liveOf(m, 'Acme')).toMatchObject({ id: acme2.id, invalidated_by: unemployed.id });
  });
});

describe('a write batch: slots in the order their ends need', () => {
  it('a message saying again a fact and what closed it, in that order, writes no new version', () => {
    // The fact's slot is touched first, but the closing claim's slot is resolved first: the judged
    // end then names the fact that already holds it, and the closed fact stays as it is.
    const m = fresh();
    teach(m, day('01'), [learned({ predicate: 'employer', object: { kind: 'literal', value: 'Acme' }, fact: 'I work at Acme.', validAt: day('01') })]);
    const acme = liveOf(m, 'Acme');
    teach(m, day('10'), [learned({ object: { kind: 'literal', value: 'unemployed' }, fact: 'I am unemployed.', validAt: day('10'), contradicts: [acme.id] })]);
    const closed = liveOf(m, 'Acme');
    const unemployed = liveOf(m, 'unemployed');
    expect(closed).toMatchObject({ invalid_at: day('10'), invalidated_by: unemployed.id });
    const versions = all(m).length;
    const { changes } = teach(m, day('11'), [
      learned({ predicate: 'employer', object: { kind: 'literal', value: 'Acme' }, fact: 'I work at Acme.', validAt: day('01') }),
      learned({ object: { kind: 'literal', value: 'unemployed' }, fact: 'I am unemployed.', validAt: day('10'), contradicts: [closed.id] }),
    ]);
    expect(changes.inserted).toEqual([]);
    expect(changes.expired).toEqual([]);
    expect(changes.confirmed.sort()).toEqual([closed.id, unemployed.id].sort());
    expect(all(m)).toHaveLength(versions);
    expect(liveOf(m, 'Acme')).toMatchObject({ id: closed.id, invalidated_by: unemployed.id });
  });
});

describe('a write batch: an end named before the fact that holds its claim exists', () => {
  it('a fact closed by a claim whose slot the write resolves later still names the fact that holds it', () => {
    // "I like coffee now, and I hate tea": the likes slot is touched first (coffee), so tea's end is
    // resolved before the fact holding "I hate tea" exists; the end names it once it does.
    const m = fresh();
    teach(m, day('01'), [learned({ predicate: 'likes', cardinality: 'many', object: { kind: 'literal', value: 'tea' }, fact: 'I like tea.', validAt: day('01') })]);
    const tea = liveOf(m, 'tea');
    teach(m, day('10'), [
      learned({ predicate: 'likes', cardinality: 'many', object: { kind: 'literal', value: 'coffee' }, fact: 'I like coffee.', validAt: day('10') }),
      learned({ predicate: 'hates', cardinality: 'many', object: { kind: 'literal', value: 'green tea' }, fact: 'I hate green tea.', validAt: day('10'), contradicts: [tea.id] }),
    ]);
    const hates = liveOf(m, 'green tea');
    expect(liveOf(m, 'tea')).toMatchObject({ invalid_at: day('10'), invalidated_by: hates.id });
    const ends = databaseOf(m).prepare<[], { end_by: string | null }>("SELECT end_by FROM claims WHERE end_kind = 'judged'").all();
    expect(ends).toEqual([{ end_by: hates.id }]);
  });
});

describe('the write batch as a contract', () => {
  it('resolves once: a second commit in the same write answers the first and writes nothing', () => {
    const m = fresh();
    const store = storeOf(m);
    const subject = store.entities.findOrCreate('Sato');
    const claim = { subjectId: subject.id, predicate: 'likes', objectId: null, objectLiteral: 'tea', fact: 'Sato likes tea.', cardinality: 'many' as const, validAt: day('01'), validPrecision: 'day' as const, referenceTime: day('01'), end: null, episodeIds: [], origin: 'observed' as const };
    store.slots.begin();
    store.slots.add(claim);
    const first = store.slots.commit();
    expect(first.created).toHaveLength(1);
    expect(store.slots.commit()).toBe(first);
    expect(all(m)).toHaveLength(1);
  });

  it('refuses a claim, a refresh or an after-commit step once the write is resolved', () => {
    const m = fresh();
    const store = storeOf(m);
    const subject = store.entities.findOrCreate('Sato');
    const claim = { subjectId: subject.id, predicate: 'likes', objectId: null, objectLiteral: 'tea', fact: 'Sato likes tea.', cardinality: 'many' as const, validAt: day('01'), validPrecision: 'day' as const, referenceTime: day('01'), end: null, episodeIds: [], origin: 'observed' as const };
    store.slots.begin();
    store.slots.commit();
    const refused = 'internal: a claim was added to a write after it was resolved';
    expect(() => store.slots.add(claim)).toThrow(refused);
    expect(() => store.slots.refresh(subject.id, 'likes')).toThrow(refused);
    expect(() => store.slots.afterCommit(() => {})).toThrow(refused);
    // A new write takes them again.
    store.slots.begin();
    store.slots.add(claim);
    expect(store.slots.commit().created).toHaveLength(1);
  });
});
