/**
 * An end typed without a year, as a person types it into `tempora edit --invalid-at` (or the edit
 * form, through editFact): said of the past where that is after the fact's start ("3月": last March),
 * else still to come ("November" typed in June for a fact since May: this November, held through
 * it) — it was refused as ending before it began.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runTempora } from './cli-helpers';
import { steppingClock, type Clock } from '../../electron/memory/index';
import { withEngine } from '../fixtures/engine-calls';
import type { FactRecord } from '../../shared/memory-schema';

let dir: string;
let clock: Clock;
const env = { TEMPORA_TZ: 'Asia/Tokyo' };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-edit-end-ahead-'));
  // 15 June 2026 in Tokyo
  clock = steppingClock('2026-06-15T01:00:00.000Z');
  const line = (predicate: string, object: string, validAt: string) =>
    JSON.stringify({ subject: 'me', predicate, object, object_type: 'literal', fact: `me ${predicate} ${object}`, reference_time: '2026-06-15T10:00:00+09:00', valid_at: validAt });
  writeFileSync(join(dir, 'q.jsonl'), `${line('stays_in', 'Osaka', '2026-05')}\n${line('studies', 'piano', '2025-01')}\n`);
  expect(runTempora(dir, clock, ['observe', 'q.jsonl'], env).code).toBe(0);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const live = () => (JSON.parse(runTempora(dir, clock, ['facts', '--history', '--json'], env).out) as FactRecord[]).filter((f) => f.expired_at === null);
const of = (object: string) => live().find((f) => f.object === object)!;

describe('an end typed without a year', () => {
  it('is this November for a fact since May, and last March for one since 2025', () => {
    const osaka = runTempora(dir, clock, ['edit', of('Osaka').id, '--invalid-at', 'November'], env);
    expect(osaka.err).toBe('');
    expect(osaka.code).toBe(0);
    // held through November (its last instant in Tokyo), which reads as "November"
    expect([of('Osaka').invalid_at, of('Osaka').invalid_at_precision]).toEqual(['2026-11-30T14:59:59.999Z', 'month']);
    const asOf = (day: string) => runTempora(dir, clock, ['facts', '--as-of', day], env).out;
    expect(asOf('2026-11-30')).toContain('Osaka');
    expect(asOf('2026-12-01')).not.toContain('Osaka');
    // typed as a month with its year, the same
    expect(runTempora(dir, clock, ['edit', of('Osaka').id, '--invalid-at', '2026-11'], env).err).toMatch(/changes nothing/);
    expect(of('Osaka').invalid_at).toBe('2026-11-30T14:59:59.999Z');
    expect(runTempora(dir, clock, ['edit', of('piano').id, '--invalid-at', '3月'], env).code).toBe(0);
    expect(of('piano').invalid_at).toBe('2026-02-28T15:00:00.000Z');
  });

  it('reads the same through the edit form’s call (editFact)', async () => {
    // The engine keeps the system's clock: it is 15 June 2026 in Tokyo for this test.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-15T01:00:00.000Z'));
    vi.stubEnv('TEMPORA_TZ', 'Asia/Tokyo');
    try {
      await withEngine(join(dir, 'data'), async (call) => {
        const id = of('Osaka').id;
        const edited = (await call('editFact', { id, invalid_at: '11月' })) as FactRecord;
        expect([edited.invalid_at, edited.invalid_at_precision]).toEqual(['2026-11-30T14:59:59.999Z', 'month']);
      });
    } finally {
      vi.useRealTimers();
      vi.unstubAllEnvs();
    }
  });

  it('--invalid-at none on a fact that is open says it is already open, and changes nothing', () => {
    const before = live();
    const reopened = runTempora(dir, clock, ['edit', of('Osaka').id, '--invalid-at', 'none'], env);
    expect(reopened).toEqual({ code: 1, out: '', err: 'tempora: --invalid-at none: the fact is already open (true until further notice); nothing changed\n' });
    expect(live()).toEqual(before);
  });
});
