/**
 * One write whose observations of one slot disagree on cardinality is refused, whole: before, the
 * first line listed decided ([寿司 (no cardinality), ramen "one"] made the slot one-valued, 寿司 won and
 * ramen was stored closed at the instant it started — true nowhere, and nobody told). An omitted
 * cardinality is "many", the documented default, so it disagrees with a "one" too. Across writes the
 * rule is unchanged: a slot that holds a one-valued claim stays one-valued, whatever a later write
 * says (temporal-slot-lookups.test.ts, slot-resolver-mutants.test.ts pin it).
 */
import { describe, expect, it } from 'vitest';
import { MemoryInputError, openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';

const fresh = () => openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') });
const AT = '2026-09-01T10:00:00+09:00';
const sushi = { subject: 'me', predicate: 'likes', object: '寿司', object_type: 'literal', fact: '寿司が好き。', reference_time: AT };
const ramen = { subject: 'me', predicate: 'likes', object: 'ramen', object_type: 'literal', fact: 'I like ramen.', reference_time: AT, cardinality: 'one' };

/** Every row of every table that a write can touch, for "nothing was stored". */
const everything = (m: Memory) => {
  const db = databaseOf(m);
  return ['episodes', 'entities', 'facts', 'claims', 'conversations', 'pending_reviews'].map((t) => [t, (db.prepare(`SELECT * FROM ${t}`).all() as object[]).map((r) => JSON.stringify(r)).sort()]);
};

function refusal(m: Memory, inputs: unknown[], source?: Parameters<Memory['facts']['observe']>[1]): MemoryInputError {
  const before = everything(m);
  let caught: unknown;
  try {
    m.facts.observe(inputs, source);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(MemoryInputError);
  expect(everything(m)).toEqual(before);
  return caught as MemoryInputError;
}

describe('one write, one slot, two cardinalities', () => {
  it('the reported write is refused, naming both lines, the slot and the fix; nothing is stored', () => {
    const m = fresh();
    const error = refusal(m, [sushi, ramen], { where: 'facts.jsonl' });
    expect(error.message).toBe(
      'facts.jsonl:2: cardinality: "one", but facts.jsonl:1 is about the same slot (me · likes) and gives none, so "many" (the default) — ' +
        'the observations of one slot in one write must agree: give both "one" (one value at a time) or both "many" (several at once)',
    );
    expect(error.where).toBe('facts.jsonl:2');
    expect(m.facts.list({ history: true })).toEqual([]);
    m.close();
  });

  it('in either order, and when both say it', () => {
    const m = fresh();
    expect(refusal(m, [ramen, sushi], { where: 'input' }).message).toMatch(
      /^input:2: cardinality: not given, so "many" \(the default\), but input:1 is about the same slot \(me · likes\) and says "one" — /,
    );
    expect(refusal(m, [{ ...sushi, cardinality: 'many' }, ramen], { where: 'input' }).message).toMatch(/^input:2: cardinality: "one", but input:1 is about the same slot \(me · likes\) and says "many" — /);
    m.close();
  });

  it('names the first line of the slot, whichever line disagrees later', () => {
    const m = fresh();
    const other = { ...sushi, predicate: 'drinks', object: 'tea', fact: 'I drink tea.', cardinality: 'one' };
    const error = refusal(m, [other, sushi, { ...sushi, object: 'udon', fact: 'I like udon.' }, other, ramen], { where: 'f' });
    expect(error.message).toMatch(/^f:5: cardinality: "one", but f:2 is about the same slot \(me · likes\) and gives none/);
    m.close();
  });

  it('a slot is the subject as the memory knows it and the predicate as normalised', () => {
    const m = fresh();
    m.facts.observe([{ ...sushi, subject: 'Sato', predicate: 'lives in', object: 'Osaka', fact: 'Sato lives in Osaka.', reference_time: '2026-08-01T10:00:00+09:00', cardinality: 'one' }]);
    // "I" is the user, "me" too; "lives in" and "lives_in" are one predicate; "sato" is Sato.
    expect(refusal(m, [{ ...sushi, subject: 'I' }, ramen]).message).toMatch(/same slot \(me · likes\)/);
    const moved = { ...sushi, subject: 'sato', predicate: 'lives_in', object: 'Kyoto', fact: 'Sato moved to Kyoto.' };
    expect(refusal(m, [{ ...moved, cardinality: 'one' }, { ...moved, predicate: 'Lives In', object: 'Nara' }]).message).toMatch(/same slot \(Sato · lives_in\)/);
    m.close();
  });

  it('is refused while facts from an agent wait for review too: nothing is held', () => {
    const m = fresh();
    m.review.setBeforeRemembering(true);
    expect(refusal(m, [sushi, ramen], { where: 'facts', agent: 'an agent' }).message).toMatch(/^facts:2: cardinality: "one", but facts:1 is about the same slot \(me · likes\)/);
    expect(m.review.status()).toEqual({ reviewBeforeRemembering: true, waiting: 0 });
    m.close();
  });

  it('what agrees is stored as before: the same cardinality in one slot, different ones in different slots', () => {
    const m = fresh();
    m.facts.observe([sushi, { ...ramen, cardinality: undefined }, { ...ramen, predicate: 'lives_in', object: 'Osaka', fact: 'I live in Osaka.' }, { ...sushi, subject: 'Sato', cardinality: 'one' }]);
    const live = m.facts.list({}).map((f) => [f.subject, f.predicate, f.object, f.cardinality, f.invalid_at]).sort();
    expect(live).toEqual([
      ['Sato', 'likes', '寿司', 'one', null],
      ['me', 'likes', 'ramen', 'many', null],
      ['me', 'likes', '寿司', 'many', null],
      ['me', 'lives_in', 'Osaka', 'one', null],
    ]);
    m.close();
  });

  it('across writes a one-valued slot stays one-valued: a later "many" or none joins it, as before', () => {
    const m = fresh();
    m.facts.observe([ramen]);
    m.facts.observe([{ ...sushi, reference_time: '2026-09-02T10:00:00+09:00' }]);
    expect(m.facts.list({}).map((f) => [f.object, f.cardinality])).toEqual([['寿司', 'one']]);
    m.close();
  });

  it('no write leaves a fact closed at the instant it started because its lines disagreed', () => {
    // Every way two same-time lines of one slot can state cardinality: refused, or stored with no
    // empty interval (both "one" at one instant is rule 3's tie, not a disagreement: not here).
    const said = [undefined, 'many', 'one'] as const;
    for (const a of said)
      for (const b of said) {
        if (a === 'one' && b === 'one') continue;
        const m = fresh();
        const lines = [
          { ...sushi, cardinality: a },
          { ...ramen, cardinality: b },
        ];
        const agree = (a ?? 'many') === (b ?? 'many');
        if (agree) m.facts.observe(lines);
        else refusal(m, lines);
        expect(m.facts.list({ history: true }).filter((f) => f.invalid_at !== null && f.invalid_at <= f.valid_at)).toEqual([]);
        m.close();
      }
  });
});
