/**
 * The command in the user's zone (issue 12): --tz and $TEMPORA_TZ decide how typed times are read
 * and how times are shown; $LANG the format; precision is kept from what was typed.
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
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-tz-'));
  // 2026-12-01 08:00 in Tokyo is still 30 November in UTC.
  clock = steppingClock('2026-11-30T23:00:00.000Z');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tempora(env: NodeJS.ProcessEnv, ...argv: string[]) {
  const { code, out, err } = runTempora(dir, clock, argv, env);
  expect(err).toBe('');
  expect(code).toBe(0);
  return { out, json: <T>() => JSON.parse(out) as T };
}

const seed = () => {
  writeFileSync(
    join(dir, 'seed.jsonl'),
    `${JSON.stringify({ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', valid_at: '9月1日', cardinality: 'one' })}\n`,
  );
  tempora({ TEMPORA_TZ: 'UTC' }, 'observe', 'seed.jsonl');
};

describe('tempora in the user\'s zone', () => {
  it('shows times in --tz, with the precision they were said in', () => {
    seed();
    const tokyo = tempora({}, 'facts', '--tz', 'Asia/Tokyo').out;
    expect(tokyo).toMatch(/manager\s+A\s+since 1 Sept 2026\s+My manager is A\./);
    expect(tokyo).toContain('times in Asia/Tokyo');
    // In New York the same day-precision start is the evening before.
    expect(tempora({ TEMPORA_TZ: 'America/New_York' }, 'facts').out).toMatch(/since 31 Aug 2026\s/);
  });

  it('a year or month said in Tokyo reads the same after the user moves to Los Angeles', () => {
    writeFileSync(
      join(dir, 'piano.jsonl'),
      [
        { subject: 'me', predicate: 'plays', object: 'piano', object_type: 'literal', fact: 'I play the piano.', reference_time: '2026-09-01T10:00:00+09:00', valid_at: '2025' },
        { subject: 'me', predicate: 'studies', object: 'Spanish', object_type: 'literal', fact: 'I study Spanish.', reference_time: '2026-09-01T10:00:00+09:00', valid_at: '2026-03' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    tempora({ TEMPORA_TZ: 'Asia/Tokyo' }, 'observe', 'piano.jsonl');
    const json = tempora({ TEMPORA_TZ: 'Asia/Tokyo' }, 'facts', '--json').json<FactRecord[]>();
    expect(json.find((f) => f.object === 'piano')).toMatchObject({ valid_at: '2024-12-31T15:00:00.000Z', valid_at_precision: 'year' });
    for (const zone of ['Asia/Tokyo', 'America/Los_Angeles']) {
      const shown = tempora({ TEMPORA_TZ: zone }, 'facts').out;
      expect(shown, zone).toMatch(/piano\s+since 2025\s/);
      expect(shown, zone).toMatch(/Spanish\s+since March 2026\s/);
    }
  });

  it('reads typed dates and phrases in the zone: "yesterday" in Tokyo, "2026-03" as a month', () => {
    seed();
    const [fact] = tempora({ TEMPORA_TZ: 'Asia/Tokyo' }, 'facts', '--json').json<FactRecord[]>();
    // Now is 1 December 08:00 in Tokyo: yesterday began at 30 November 00:00 there.
    const closed = tempora({ TEMPORA_TZ: 'Asia/Tokyo' }, 'close', fact!.id, '--at', 'yesterday', '--json').json<FactRecord>();
    expect(closed).toMatchObject({ invalid_at: '2026-11-29T15:00:00.000Z', invalid_at_precision: 'day' });
    const edited = tempora({}, 'edit', closed.id, '--valid-at', '2026-03', '--tz', 'Asia/Tokyo', '--json').json<FactRecord>();
    expect(edited).toMatchObject({ valid_at: '2026-02-28T15:00:00.000Z', valid_at_precision: 'month' });
    expect(tempora({ TEMPORA_TZ: 'Asia/Tokyo' }, 'show', edited.id).out).toMatch(/valid:\s+March – 30 Nov 2026$/m);
    expect(tempora({ TEMPORA_TZ: 'Asia/Tokyo' }, 'facts', '--as-of', '2026-03-01', '--json').json<FactRecord[]>()).toHaveLength(1);
    expect(tempora({ TEMPORA_TZ: 'UTC' }, 'facts', '--as-of', '2026-02-28T14:59:59Z', '--json').json<FactRecord[]>()).toHaveLength(0);
  });

  it('formats for $LANG: Japanese dates and wording', () => {
    seed();
    expect(tempora({ TEMPORA_TZ: 'Asia/Tokyo', LANG: 'ja_JP.UTF-8' }, 'facts').out).toMatch(/2026年9月1日から/);
  });
});
