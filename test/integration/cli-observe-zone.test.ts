/**
 * Times in an observation file written without a zone are the user's wall times (--tz, else
 * $TEMPORA_TZ), as every time typed at the `tempora` command is — not UTC. A person in Tokyo who
 * writes "reference_time":"2026-01-01T10:00" said it at 10:00 in Tokyo (01:00Z), and a valid_at of
 * "2026-05-01" is that day in Tokyo. A time with its offset or Z keeps it whatever the zone.
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
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-observe-zone-'));
  clock = steppingClock('2026-12-01T00:00:00.000Z');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(argv: string[], env: NodeJS.ProcessEnv): string {
  const result = runTempora(dir, clock, argv, env);
  expect(result.err).toBe('');
  expect(result.code).toBe(0);
  return result.out;
}

/** The one fact the line made, with the reference time its message was stored with (from the export). */
function observe(line: Record<string, string>, env: NodeJS.ProcessEnv, extra: string[] = []): FactRecord & { reference_time: string } {
  writeFileSync(join(dir, 'lines.jsonl'), `${JSON.stringify({ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', ...line })}\n`);
  run(['observe', 'lines.jsonl', ...extra], env);
  const [fact] = JSON.parse(run(['facts', '--history', '--json'], env)) as FactRecord[];
  const exported = JSON.parse(run(['export'], env)) as { episodes: { reference_time: string }[] };
  return { ...fact!, reference_time: exported.episodes[0]!.reference_time };
}

describe('an observation time without a zone is read in the user’s zone', () => {
  it('reference_time 10:00 with TEMPORA_TZ=Asia/Tokyo is 01:00Z, and valid_at defaults to it', () => {
    const fact = observe({ reference_time: '2026-01-01T10:00' }, { TEMPORA_TZ: 'Asia/Tokyo' });
    expect(fact).toMatchObject({ reference_time: '2026-01-01T01:00:00.000Z', valid_at: '2026-01-01T01:00:00.000Z' });
  });

  it('--tz wins over $TEMPORA_TZ; a date alone is that day’s start there, and valid_at a day there', () => {
    const fact = observe({ reference_time: '2026-01-01', valid_at: '2025-05-01', invalid_at: '2025-06-01T10:00' }, { TEMPORA_TZ: 'UTC' }, ['--tz', 'America/New_York']);
    // New York is UTC−5 in January, −4 in May and June.
    expect(fact).toMatchObject({
      reference_time: '2026-01-01T05:00:00.000Z',
      valid_at: '2025-05-01T04:00:00.000Z',
      valid_at_precision: 'day',
      invalid_at: '2025-06-01T14:00:00.000Z',
    });
  });

  it('a time with its offset or Z is that instant whatever the user’s zone', () => {
    expect(observe({ reference_time: '2026-01-01T10:00:00Z' }, { TEMPORA_TZ: 'Asia/Tokyo' }).reference_time).toBe('2026-01-01T10:00:00.000Z');
    rmSync(join(dir, 'data'), { recursive: true, force: true });
    expect(observe({ reference_time: '2026-01-01T10:00:00-05:00' }, { TEMPORA_TZ: 'Asia/Tokyo' }).reference_time).toBe('2026-01-01T15:00:00.000Z');
  });

  it('an impossible zone-less date is refused in the same words, naming the line, and stores nothing', () => {
    writeFileSync(join(dir, 'bad.jsonl'), `${JSON.stringify({ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-02-30T10:00' })}\n`);
    const result = runTempora(dir, clock, ['observe', 'bad.jsonl'], { TEMPORA_TZ: 'Asia/Tokyo' });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^tempora: bad\.jsonl:1: reference_time: 2026-02-30T10:00 is not a date: February 2026 has 28 days/);
  });
});
