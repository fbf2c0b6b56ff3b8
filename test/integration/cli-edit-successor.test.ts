/**
 * An end given to a one-valued fact that the next value closes: it ends where that value begins, so
 * a later end (or none) would change nothing. `tempora edit --invalid-at` and `tempora close` refuse
 * it naming the fact that closes it, exit 1, and write no version — they said "Edited" and wrote an
 * empty "your edit" version before. An earlier end still closes it there.
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
const env = { TEMPORA_TZ: 'Asia/Tokyo' };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-edit-successor-'));
  clock = steppingClock('2026-12-01T00:00:00.000Z');
  const line = (object: string, fact: string, said: string, validAt?: string) =>
    JSON.stringify({ subject: 'me', predicate: 'manager', object, fact, reference_time: said, ...(validAt ? { valid_at: validAt } : {}), cardinality: 'one' });
  writeFileSync(join(dir, 'q.jsonl'), `${line('山田', '上司は山田さんです。', '2026-04-01T09:00:00+09:00')}\n${line('鈴木', '上司は鈴木さんになりました。', '2026-10-01T09:00:00+09:00', '2026-11')}\n`);
  expect(runTempora(dir, clock, ['observe', 'q.jsonl'], env).code).toBe(0);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const history = () => JSON.parse(runTempora(dir, clock, ['facts', '--history', '--json'], env).out) as FactRecord[];
const yamada = () => history().find((f) => f.object === '山田' && f.expired_at === null)!;

describe('an end past the value that closes a one-valued fact', () => {
  it('is refused naming that fact, and writes no version', () => {
    const before = history();
    const { id } = yamada();
    const suzuki = before.find((f) => f.object === '鈴木')!;
    for (const argv of [
      ['edit', id, '--invalid-at', '2026-12-01'],
      ['edit', id, '--invalid-at', 'none'],
      ['edit', id, '--invalid-at', '2026-11', '--fact', '上司は山田部長です。'],
      ['close', id, '--at', '2026-12-01'],
    ]) {
      const result = runTempora(dir, clock, argv, env);
      expect(result).toMatchObject({ code: 1, out: '' });
      expect(result.err).toBe(`tempora: ${id} ends where ${suzuki.id} ("上司は鈴木さんになりました。") begins, and ${argv.includes('none') ? 'it cannot be reopened' : 'a later end cannot pass that'}: change when that fact began, or forget it\n`);
    }
    expect(history()).toEqual(before);
  });

  it('an earlier end still closes it there', () => {
    const { id } = yamada();
    expect(runTempora(dir, clock, ['close', id, '--at', '2026-08-01'], env).code).toBe(0);
    expect(yamada()).toMatchObject({ invalid_at: '2026-07-31T15:00:00.000Z' });
  });
});

describe('an end at or before the start', () => {
  it('is said with both times in the user’s zone, naming the option, and changes nothing', () => {
    const before = history();
    const suzuki = before.find((f) => f.object === '鈴木')!;
    const close = runTempora(dir, clock, ['close', suzuki.id, '--at', '2026-09-01'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(close).toMatchObject({ code: 1, out: '', err: 'tempora: --at (1 Sept 2026) must be after valid_at (November 2026), times in Asia/Tokyo\n' });
    const edit = runTempora(dir, clock, ['edit', suzuki.id, '--valid-at', '2026-10-01', '--invalid-at', '2026-10-01'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(edit).toMatchObject({ code: 1, out: '', err: 'tempora: --invalid-at (1 Oct 2026) must be after valid_at (1 Oct 2026), times in Asia/Tokyo\n' });
    expect(history()).toEqual(before);
  });
});
