/**
 * Relative phrases through the `tempora` command (issue 27, item 1): a phrase good to a day, month or
 * year is stored at the START of that period in the line's own zone, so asking as of that day finds it.
 * "3 days ago" said at 08:00 on Sunday 20 Sep 2026 in Tokyo is 17 Sep from 00:00 there (15:00Z on the
 * 16th), not 08:00 on the 17th.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTempora } from './cli-helpers';
import { steppingClock, type Clock } from '../../electron/memory/index';
import type { FactRecord } from '../../shared/memory-schema';

let dir: string;
let clock: Clock;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-phrases-'));
  clock = steppingClock('2026-09-20T00:00:00.000Z');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SAID_AT = '2026-09-20T08:00:00+09:00';

function ok(argv: string[], env: NodeJS.ProcessEnv = { TEMPORA_TZ: 'UTC' }): string {
  const result = runTempora(dir, clock, argv, env);
  expect(result.err).toBe('');
  expect(result.code).toBe(0);
  return result.out;
}

function observe(...lines: Array<{ object: string; valid_at: string; predicate?: string }>): void {
  const text = lines
    .map((l) => JSON.stringify({ subject: 'me', predicate: l.predicate ?? 'lives in', object: l.object, fact: `I live in ${l.object}.`, reference_time: SAID_AT, valid_at: l.valid_at, cardinality: 'one' }))
    .join('\n');
  writeFileSync(join(dir, 'lines.jsonl'), `${text}\n`);
  ok(['observe', 'lines.jsonl']);
}

const asOf = (when: string) => JSON.parse(ok(['facts', '--as-of', when, '--tz', 'Asia/Tokyo', '--json'])) as FactRecord[];

describe('relative phrases stored at the start of the period they name', () => {
  it('"3 days ago" at 08:00 on 20 Sep in Tokyo holds from the first instant of 17 Sep there', () => {
    observe({ object: 'Kyoto', valid_at: '3 days ago' });
    const [fact] = asOf('2026-09-17');
    expect(fact).toMatchObject({ object: 'Kyoto', valid_at: '2026-09-16T15:00:00.000Z', valid_at_precision: 'day' });
    expect(asOf('2026-09-17T00:00:00+09:00')).toHaveLength(1);
    expect(asOf('2026-09-16T23:59:59+09:00')).toHaveLength(0);
    expect(asOf('2026-09-16')).toHaveLength(0);
    expect(ok(['facts'], { TEMPORA_TZ: 'Asia/Tokyo' })).toMatch(/Kyoto\s+since 17 Sept 2026\s/);
  });

  it('reads Japanese and longer durations the same way: 2日前, 3ヶ月前, 先月, 去年', () => {
    observe(
      { object: 'Osaka', valid_at: '2日前', predicate: 'lives in' },
      { object: 'Nara', valid_at: '3ヶ月前', predicate: 'works in' },
      { object: 'Kobe', valid_at: '先月', predicate: 'studies in' },
      { object: 'Sendai', valid_at: '去年', predicate: 'was born in' },
    );
    const stored = Object.fromEntries(
      (JSON.parse(ok(['facts', '--json'])) as FactRecord[]).map((f) => [f.object, [f.valid_at, f.valid_at_precision]]),
    );
    expect(stored).toEqual({
      Osaka: ['2026-09-17T15:00:00.000Z', 'day'],
      Nara: ['2026-06-19T15:00:00.000Z', 'day'],
      Kobe: ['2026-07-31T15:00:00.000Z', 'month'],
      Sendai: ['2024-12-31T15:00:00.000Z', 'year'],
    });
    expect(asOf('2026-09-18').map((f) => f.object).sort()).toEqual(['Kobe', 'Nara', 'Osaka', 'Sendai']);
    expect(asOf('2026-09-17T23:59:59+09:00').map((f) => f.object).sort()).toEqual(['Kobe', 'Nara', 'Sendai']);
    expect(asOf('2026-06-20').map((f) => f.object).sort()).toEqual(['Nara', 'Sendai']);
    expect(asOf('2026-06-19T23:59:59+09:00').map((f) => f.object)).toEqual(['Sendai']);
  });
});
