/**
 * `tempora observe FILE` whose lines about one slot disagree on cardinality (observe.ts
 * oneCardinalityPerSlot): refused whole, exit 1, one stderr line naming both lines by their line in
 * the file (blank lines counted), the slot and the fix; the memory is left exactly as it was.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { steppingClock, type Clock } from '../../electron/memory/index';
import { runTempora } from './cli-helpers';

let dir: string;
let clock: Clock;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-observe-cardinality-'));
  clock = steppingClock('2026-12-01T00:00:00.000Z');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const AT = '2026-09-01T10:00:00+09:00';
const line = (fields: Record<string, unknown>) => JSON.stringify({ subject: 'me', predicate: 'likes', object_type: 'literal', reference_time: AT, ...fields });
const exported = () => {
  const run = runTempora(dir, clock, ['export']);
  expect(run.code).toBe(0);
  const { exported_at: _, ...rest } = JSON.parse(run.out) as Record<string, unknown>;
  return rest;
};

it('refuses a file whose lines about one slot disagree on cardinality, naming both lines', () => {
  writeFileSync(join(dir, 'seed.jsonl'), `${line({ predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', cardinality: 'one' })}\n`);
  expect(runTempora(dir, clock, ['observe', 'seed.jsonl'])).toMatchObject({ code: 0, err: '' });
  const before = exported();

  // Line 2 is blank: the lines are 3 and 4, the observations 2 and 3.
  const file = [line({ predicate: 'drinks', object: 'tea', fact: 'I drink tea.' }), '', line({ object: '寿司', fact: '寿司が好き。' }), line({ object: 'ramen', fact: 'I like ramen.', cardinality: 'one' })].join('\n');
  writeFileSync(join(dir, 'food.jsonl'), `${file}\n`);
  const run = runTempora(dir, clock, ['observe', 'food.jsonl']);
  expect(run.out).toBe('');
  expect(run.err).toBe(
    'tempora: food.jsonl:4: cardinality: "one", but food.jsonl:3 is about the same slot (me · likes) and gives none, so "many" (the default) — ' +
      'the observations of one slot in one write must agree: give both "one" (one value at a time) or both "many" (several at once)\n',
  );
  expect(run.code).toBe(1);
  expect(exported()).toEqual(before);
});
