/**
 * An end given to a one-valued fact that the next value closes: it ends where that value begins. An
 * end past that is kept in the fact's claim (it shows if that value goes) but moves nothing, so
 * `tempora edit --invalid-at` and `tempora close` say so on stderr, naming the fact that closes it —
 * they said only "Edited" before. Reopening such a fact changes nothing and is refused in those
 * words. An earlier end closes it there.
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
  it('is kept but moves nothing, and the command says so naming that fact; reopening is refused', () => {
    const { id } = yamada();
    const suzuki = history().find((f) => f.object === '鈴木')!;
    const note = (newId: string) => `tempora: note: ${newId} still ends where ${suzuki.id} ("上司は鈴木さんになりました。") begins (November 2026); the end you gave is kept and shows only if that fact goes. To move this end, change when that fact began.\n`;
    const closed = runTempora(dir, clock, ['close', id, '--at', '2026-12-01'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(closed.code).toBe(0);
    expect(closed.err).toBe(note(yamada().id));
    expect(yamada()).toMatchObject({ invalid_at: '2026-10-31T15:00:00.000Z', invalidated_by: suzuki.id });
    // `show` says the kept end, and on the version the close wrote, what the close did.
    const shown = runTempora(dir, clock, ['show', yamada().id], { ...env, LANG: 'en_GB.UTF-8' });
    expect(shown.out).toContain('kept end:   1 Dec 2026 (the end you gave; shows only if the value after it goes)\n');
    expect(shown.out).toContain('      why: you closed it\n      end you gave: 1 Dec 2026 (kept: it still ends where the next value begins)\n');
    expect(shown.out).not.toContain('no field changed');
    const edited = runTempora(dir, clock, ['edit', yamada().id, '--invalid-at', '2027-01', '--fact', '上司は山田部長です。'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(edited.code).toBe(0);
    expect(edited.err).toBe(note(yamada().id));

    // The kept end survives an edit of the text only: it shows once the closing fact is forgotten.
    expect(runTempora(dir, clock, ['edit', yamada().id, '--fact', '上司は山田課長です。'], env).code).toBe(0);
    expect(runTempora(dir, clock, ['forget', suzuki.id], env).code).toBe(0);
    // "2027-01", a month still to come when typed, is held through January in Tokyo
    expect(yamada()).toMatchObject({ fact: '上司は山田課長です。', invalid_at: '2027-01-31T14:59:59.999Z', invalid_at_precision: 'month', invalidated_by: null });
  });

  it('reopening drops the kept end, said so; with no kept end it is refused, naming the closing fact', () => {
    const suzuki = history().find((f) => f.object === '鈴木')!;
    const before = history();
    const refused = runTempora(dir, clock, ['edit', yamada().id, '--invalid-at', 'none'], env);
    expect(refused).toMatchObject({ code: 1, out: '' });
    expect(refused.err).toBe(`tempora: ${yamada().id} ends where ${suzuki.id} ("上司は鈴木さんになりました。") begins, and it cannot be reopened: change when that fact began, or forget it\n`);
    expect(history()).toEqual(before);

    expect(runTempora(dir, clock, ['close', yamada().id, '--at', '2026-12-01'], env).code).toBe(0);
    const again = runTempora(dir, clock, ['close', yamada().id, '--at', '2026-12-01'], env);
    expect(again).toMatchObject({ code: 1, out: '' });
    expect(again.err).toBe(`tempora: ${yamada().id} ends where ${suzuki.id} ("上司は鈴木さんになりました。") begins, and that end is already kept for it: change when that fact began, or forget it\n`);
    const reopened = runTempora(dir, clock, ['edit', yamada().id, '--invalid-at', 'none'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(reopened.code).toBe(0);
    expect(reopened.err).toBe(`tempora: note: ${yamada().id} still ends where ${suzuki.id} ("上司は鈴木さんになりました。") begins (November 2026); the end you had given is dropped, so it stays open if that fact goes.\n`);
    expect(runTempora(dir, clock, ['forget', suzuki.id], env).code).toBe(0);
    expect(yamada()).toMatchObject({ invalid_at: null });
  });

  it('an earlier end still closes it there, with no note', () => {
    const { id } = yamada();
    const closed = runTempora(dir, clock, ['close', id, '--at', '2026-08-01'], env);
    expect(closed).toMatchObject({ code: 0, err: '' });
    expect(yamada()).toMatchObject({ invalid_at: '2026-07-31T15:00:00.000Z' });
  });
});

describe('an end at or before the start', () => {
  it('is said with both times in the user’s zone, naming the option, and changes nothing', () => {
    const before = history();
    const suzuki = before.find((f) => f.object === '鈴木')!;
    const close = runTempora(dir, clock, ['close', suzuki.id, '--at', '2026-09-01'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(close).toMatchObject({ code: 1, out: '', err: 'tempora: --at (1 Sept 2026) must be after the start the fact has (November 2026), times in Asia/Tokyo\n' });
    const edit = runTempora(dir, clock, ['edit', suzuki.id, '--valid-at', '2026-10-01', '--invalid-at', '2026-10-01'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(edit).toMatchObject({ code: 1, out: '', err: 'tempora: --invalid-at (1 Oct 2026) must be after --valid-at (1 Oct 2026), times in Asia/Tokyo\n' });
    const later = runTempora(dir, clock, ['edit', suzuki.id, '--invalid-at', '2026-10-01'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(later).toMatchObject({ code: 1, out: '', err: 'tempora: --invalid-at (1 Oct 2026) must be after the start the fact has (November 2026), times in Asia/Tokyo\n' });
    expect(history()).toEqual(before);
  });
});

describe('an end still to come', () => {
  it('is set, not closed: close and show say so', () => {
    const suzuki = history().find((f) => f.object === '鈴木')!;
    // The run's clock is 1 Dec 2026: an end in 2027 is still to come, one in November 2026 has come.
    const set = runTempora(dir, clock, ['close', suzuki.id, '--at', '2027-03-01'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(set.code, set.err).toBe(0);
    expect(set.out).toMatch(new RegExp(`^Set the end of ${suzuki.id}; the new version is fct_`));
    const ending = history().find((f) => f.object === '鈴木' && f.expired_at === null)!;
    expect(runTempora(dir, clock, ['show', ending.id], { ...env, LANG: 'en_GB.UTF-8' }).out).toContain('      why: you set its end\n');
    const closed = runTempora(dir, clock, ['close', ending.id, '--at', '2026-11-20'], { ...env, LANG: 'en_GB.UTF-8' });
    expect(closed.out).toMatch(new RegExp(`^Closed ${ending.id}; the new version is fct_`));
  });
});
