/**
 * The slot resolver's keep-or-write decisions at their boundaries (issue 12: mutants of
 * electron/memory/temporal/slot-resolver.ts that survived `npm run mutation`). Each test names the
 * rule it pins; an unchanged fact keeps its id and created_at (it is confirmed, not rewritten), a
 * changed one gets exactly one new version.
 */
import { describe, expect, it } from 'vitest';
import type { LearnedFact, Memory } from '../../electron/memory/index';
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

describe('slot resolver: which claims a write reads', () => {
  it('a many-valued slot told a one-valued value later than all it holds turns one: every old value is closed', () => {
    // kills slot-resolver.ts:95 (!storedOne || … → false; !storedOne → storedOne): a slot turning
    // one must read every claim, not only the latest fact's.
    const m = fresh();
    m.facts.observe([line('tea', '01', { predicate: 'drinks', fact: 'I drink tea.', cardinality: 'many' }), line('coffee', '05', { predicate: 'drinks', fact: 'I drink coffee.', cardinality: 'many' })]);
    expect(m.facts.list({ asOf: day('06') }).map((f) => f.object).sort()).toEqual(['coffee', 'tea']);
    m.facts.observe([line('water', '10', { predicate: 'drinks', fact: 'I drink only water.', cardinality: 'one' })]);
    expect(m.facts.list({ asOf: day('12') }).map((f) => f.object)).toEqual(['water']);
    const spans = live(m)
      .map((f) => [f.object, f.valid_at, f.invalid_at, f.cardinality])
      .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    expect(spans).toEqual([
      ['tea', day('01'), day('05'), 'one'],
      ['coffee', day('05'), day('10'), 'one'],
      ['water', day('10'), null, 'one'],
    ]);
  });

  it('forgetting one value of a many-valued slot leaves the other values open and unrewritten', () => {
    // kills slot-resolver.ts:122 (cardinality === 'one' → true): a many slot re-resolved whole keeps
    // one slot per object; the remaining values do not close each other.
    const m = fresh();
    const many = (object: string, d: string) => line(object, d, { predicate: 'likes', fact: `I like ${object}.`, cardinality: 'many' });
    m.facts.observe([many('tea', '01'), many('coffee', '05'), many('juice', '07')]);
    const before = live(m);
    expect(before).toHaveLength(3);
    m.facts.forget(before.find((f) => f.object === 'juice')!.id);
    const after = all(m);
    expect(after).toHaveLength(2);
    for (const object of ['tea', 'coffee']) {
      const was = before.find((f) => f.object === object)!;
      const now = liveOf(m, object);
      expect(now).toMatchObject({ id: was.id, created_at: was.created_at, invalid_at: null, expired_at: null });
    }
    expect(m.facts.list({ asOf: day('20') }).map((f) => f.object).sort()).toEqual(['coffee', 'tea']);
  });

  it('an edit that moves a fact after the latest one re-reads the whole slot: the fact it used to close extends', () => {
    // kills slot-resolver.ts:95 (newClaims.some((c) => c.replaces) → () => undefined): an edit must
    // not take the latest-fact shortcut, since the span it leaves may belong to an earlier fact.
    const m = fresh();
    m.facts.observe([line('A', '01'), line('E', '10'), line('C', '15')]);
    const e = liveOf(m, 'E');
    m.facts.edit(e.id, { valid_at: day('20') });
    const spans = live(m)
      .map((f) => [f.object, f.valid_at, f.invalid_at])
      .sort((x, y) => String(x[1]).localeCompare(String(y[1])));
    expect(spans).toEqual([
      ['A', day('01'), day('15')],
      ['C', day('15'), day('20')],
      ['E', day('20'), null],
    ]);
    expect(m.facts.list({ asOf: day('12') }).map((f) => f.object)).toEqual(['A']);
    expect(liveOf(m, 'A').invalidated_by).toBe(liveOf(m, 'C').id);
  });
});

describe('slot resolver: an unchanged fact is confirmed, not rewritten', () => {
  it('a fact closed by a successor that was re-versioned stays as it is when said again', () => {
    // kills slot-resolver.ts:239-240 (sameInvalidator: a successor is compared by lineage, not by
    // version id — #252 true, #256 !==, #258 lineage !== null, #262 true, #264 ===, #265 "").
    const m = fresh();
    m.facts.observe([line('A', '01'), line('B', '10')]);
    const b = liveOf(m, 'B');
    m.facts.edit(b.id, { valid_at: day('08') });
    const a = liveOf(m, 'A');
    const b2 = liveOf(m, 'B');
    expect(b2.id).not.toBe(b.id);
    expect(a).toMatchObject({ invalid_at: day('08'), invalidated_by: b2.id });
    const versions = all(m).length;
    const summary = m.facts.observe([line('A', '01')]);
    expect(summary).toMatchObject({ factsAdded: 0, factsClosed: 0, factsConfirmed: 1 });
    expect(all(m)).toHaveLength(versions);
    expect(liveOf(m, 'A')).toMatchObject({ id: a.id, created_at: a.created_at, invalidated_by: b2.id });
    expect(liveOf(m, 'A').episode_ids).toHaveLength(a.episode_ids.length + 1);
  });

  it('a fact whose closing version is no longer live (its successor was edited) stays as it is when said again', () => {
    // kills slot-resolver.ts:241 (this.known.get(…) ?? this.facts.byId(…) → &&): the invalidator
    // named by a kept fact may be an expired version, not among the slot's live facts.
    const m = fresh();
    m.facts.observe([line('A', '01'), line('B', '10')]);
    const b = liveOf(m, 'B');
    m.facts.edit(b.id, { fact: 'B became my manager.' });
    const a = liveOf(m, 'A');
    expect(liveOf(m, 'B').id).not.toBe(b.id);
    expect(a.invalidated_by).toBe(b.id); // A itself was not rewritten by the edit
    const versions = all(m).length;
    const summary = m.facts.observe([line('A', '01')]);
    expect(summary).toMatchObject({ factsAdded: 0, factsClosed: 0, factsConfirmed: 1 });
    expect(all(m)).toHaveLength(versions);
    expect(liveOf(m, 'A')).toMatchObject({ id: a.id, created_at: a.created_at });
  });

  it('the same message applied twice confirms nothing the second time', () => {
    // kills slot-resolver.ts:218 (episodesOfSpan().filter(not yet linked) → all of them): a span whose
    // episodes the fact already cites is kept without a confirmation.
    const m = fresh();
    const time = day('02');
    const { episode, job } = m.messages.append({ role: 'user', content: 'My manager is Acme.', time, conversation: 'c1' });
    const fact: LearnedFact = {
      subject: { kind: 'user' },
      predicate: 'manager',
      object: { kind: 'literal', value: 'Acme' },
      fact: 'My manager is Acme.',
      cardinality: 'one',
      validAt: day('01'),
      validPrecision: 'instant',
      end: null,
      endsExisting: null,
      endPrecision: 'instant',
      fromAssistant: false,
      duplicateOf: null,
      contradicts: [],
    };
    const learning = { episodeId: episode.id, referenceTime: time, confirmedEpisodeId: null, facts: [fact] };
    const usage = { modelCalls: 1, promptTokens: 1, completionTokens: 1 };
    const first = m.messages.applyIngestion(job!.id, learning, usage);
    expect(first.created).toHaveLength(1);
    const acme = liveOf(m, 'Acme');
    const second = m.messages.applyIngestion(job!.id, learning, usage);
    expect(second).toEqual({ inserted: [], created: [], expired: [], closed: [], confirmed: [] });
    expect(liveOf(m, 'Acme')).toMatchObject({ id: acme.id, created_at: acme.created_at, episode_ids: [episode.id] });
  });
});

describe('slot resolver: a fact is rewritten when only one of its values changes', () => {
  it('a restatement with the same times whose sentence sorts first rewrites the sentence (one new version)', () => {
    // kills slot-resolver.ts:298 (row.fact === desired.fact → true) and :296-298 (#332, #333).
    const m = fresh();
    m.facts.observe([line('A', '01')]);
    const a = liveOf(m, 'A');
    // same valid_at and reference_time: the sentence decides which claim represents the span
    const summary = m.facts.observe([line('A', '01', { fact: 'A manages me.' })]);
    expect(summary).toMatchObject({ factsAdded: 0, factsClosed: 0, factsConfirmed: 0 });
    const a2 = liveOf(m, 'A');
    expect(a2.id).not.toBe(a.id);
    expect(a2).toMatchObject({ fact: 'A manages me.', supersedes: a.id, valid_at: day('01') });
    expect(all(m)).toHaveLength(2);
  });

  it('a restatement that only says the start more precisely rewrites valid_at_precision', () => {
    // kills slot-resolver.ts:301 (row.valid_at_precision === desired.valid_at_precision → true). The
    // new claim sorts first (it states an end) but the later stated end still closes the span.
    const m = fresh();
    const many = (d: string, extra: Record<string, unknown>) => line('tennis', d, { predicate: 'plays', fact: 'I play tennis.', cardinality: 'many', reference_time: day('01'), ...extra });
    m.facts.observe([many('01', { valid_at: day('01') }), many('01', { valid_at: day('05'), invalid_at: day('20') })]);
    const t = liveOf(m, 'tennis');
    expect(t).toMatchObject({ valid_at: day('01'), valid_at_precision: 'instant', invalid_at: day('20'), invalid_at_precision: 'instant' });
    // "2026-09-01" is a phrase: that day (in the zone of reference_time, UTC), precision day
    m.facts.observe([many('01', { valid_at: '2026-09-01', invalid_at: day('10') })]);
    const t2 = liveOf(m, 'tennis');
    expect(t2).toMatchObject({ valid_at: day('01'), valid_at_precision: 'day', invalid_at: day('20'), invalid_at_precision: 'instant', supersedes: t.id });
  });

  it('a stated end said again more coarsely by a claim that sorts first rewrites invalid_at_precision', () => {
    // kills slot-resolver.ts:303 (row.invalid_at_precision === desired.invalid_at_precision → true):
    // of equal stated ends the span keeps the end of the claim that sorts first.
    const m = fresh();
    const many = (extra: Record<string, unknown>) => line('tennis', '01', { predicate: 'plays', fact: 'I play tennis.', cardinality: 'many', ...extra });
    // the day "2026-09-20", still to come when said, holds through it: to its last instant (UTC)
    const end = '2026-09-20T23:59:59.999Z';
    m.facts.observe([many({ valid_at: day('01') }), many({ valid_at: day('05'), invalid_at: end })]);
    const t = liveOf(m, 'tennis');
    expect(t).toMatchObject({ invalid_at: end, invalid_at_precision: 'instant' });
    m.facts.observe([many({ valid_at: day('03'), invalid_at: '2026-09-20' })]);
    const t2 = liveOf(m, 'tennis');
    expect(t2).toMatchObject({ valid_at: day('01'), invalid_at: end, invalid_at_precision: 'day', supersedes: t.id });
  });

  it("a span's end precision is that of the claim whose end it took, not of its first claim", () => {
    // kills slot-resolver.ts:253 (c.end === end → true: the first claim's end_precision, null → 'instant').
    const m = fresh();
    const many = (extra: Record<string, unknown>) => line('tennis', '01', { predicate: 'plays', fact: 'I play tennis.', cardinality: 'many', ...extra });
    m.facts.observe([many({ valid_at: day('01') }), many({ valid_at: day('05'), invalid_at: '2026-09-20' })]);
    expect(liveOf(m, 'tennis')).toMatchObject({ valid_at: day('01'), invalid_at: '2026-09-20T23:59:59.999Z', invalid_at_precision: 'day' });
  });
});

describe('slot resolver: judged ends', () => {
  const literal = (predicate: string, object: string, d: string, fact: string) => ({ subject: 'me', predicate, object, object_type: 'literal', fact, reference_time: day(d), cardinality: 'one' });
  const usage = { modelCalls: 1, promptTokens: 1, completionTokens: 1 };
  const employedAtAcme = (contradicts: string[]): LearnedFact => ({
    subject: { kind: 'user' },
    predicate: 'employer',
    object: { kind: 'literal', value: 'Acme' },
    fact: 'I work at Acme.',
    cardinality: 'one',
    validAt: day('01'),
    validPrecision: 'instant',
    end: null,
    endsExisting: null,
    endPrecision: 'instant',
    fromAssistant: false,
    duplicateOf: null,
    contradicts,
  });
  const teach = (m: Memory, time: IsoTime, facts: LearnedFact[]) => {
    const { episode, job } = m.messages.append({ role: 'user', content: `message at ${time}`, time, conversation: 'c1' });
    return m.messages.applyIngestion(job!.id, { episodeId: episode.id, referenceTime: time, confirmedEpisodeId: null, facts }, usage);
  };

  it('a fact ended by a judgement against a later version of another fact stays as it is when said again', () => {
    // kills slot-resolver.ts:240 (kind !== 'successor' → false): a judged end names a version, and
    // is compared as that version, not by its lineage.
    const m = fresh();
    m.facts.observe([literal('location', 'abroad', '10', 'I moved abroad.')]);
    const x1 = liveOf(m, 'abroad');
    m.facts.edit(x1.id, { fact: 'I moved abroad for good.' });
    const x2 = liveOf(m, 'abroad');
    expect(x2.id).not.toBe(x1.id);
    teach(m, day('12'), [employedAtAcme([x1.id])]);
    const acme = liveOf(m, 'Acme');
    expect(acme).toMatchObject({ valid_at: day('01'), invalid_at: day('10'), invalidated_by: x2.id });
    const versions = all(m).length;
    const summary = m.facts.observe([{ ...literal('employer', 'Acme', '13', 'I work at Acme.'), valid_at: day('01') }]);
    expect(summary).toMatchObject({ factsAdded: 0, factsClosed: 0, factsConfirmed: 1 });
    expect(all(m)).toHaveLength(versions);
    expect(liveOf(m, 'Acme')).toMatchObject({ id: acme.id, created_at: acme.created_at, invalidated_by: x2.id });
  });

  it('two judgements ending a fact at the same time: it names the same one whatever order the messages arrive in', () => {
    // kills slot-resolver.ts:240 (return row.invalidated_by === lineage → true): when the judgement
    // that ends the span changes, the fact is rewritten to name it (rule 3: any arrival order, the
    // same facts).
    const run = (order: 'earlier said last' | 'earlier said first') => {
      const m = fresh();
      m.facts.observe([literal('location', 'abroad', '10', 'I moved abroad.'), literal('health', 'ill', '10', 'I fell ill.')]);
      const abroad = liveOf(m, 'abroad').id;
      const ill = liveOf(m, 'ill').id;
      teach(m, day('02'), [employedAtAcme([])]);
      // said on the 12th: ended by falling ill; said on the 15th: ended by moving abroad (both on the 10th)
      const said12 = () => teach(m, day('12'), [employedAtAcme([ill])]);
      const said15 = () => teach(m, day('15'), [employedAtAcme([abroad])]);
      if (order === 'earlier said last') {
        said15();
        said12();
      } else {
        said12();
        said15();
      }
      const acme = liveOf(m, 'Acme');
      return { invalid_at: acme.invalid_at, invalidated_by: acme.invalidated_by, ill };
    };
    const a = run('earlier said last');
    const b = run('earlier said first');
    expect(a.invalid_at).toBe(day('10'));
    expect(b.invalid_at).toBe(day('10'));
    // the judgement of the message said first (the 12th) ends the span in both orders
    expect(a.invalidated_by).toBe(a.ill);
    expect(b.invalidated_by).toBe(b.ill);
  });
});
