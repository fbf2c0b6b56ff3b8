/**
 * An option that takes one value, given twice (`tempora facts --as-of X --as-of Y`), is a usage
 * error naming the option and both values (exit 2), not the last one used in silence; in any of
 * its spellings (--as-of=X, -o FILE), a global one too. A flag given twice means what it says once.
 * The real process, spawned as the user runs it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaCommand } from './cli-helpers';

let dir: string;

const tempora = (...args: string[]) => temporaCommand(args, { env: { TEMPORA_TZ: 'UTC' } });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-repeated-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an option given twice', () => {
  it('is refused as a usage error naming the option and its values, and nothing is made', async () => {
    const data = join(dir, 'data');
    const twice = await tempora('facts', '--as-of', '2026-01-01', '--as-of=2026-06-01', '--data', data);
    expect(twice.code).toBe(2);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toBe('tempora: --as-of is given twice ("2026-01-01" and "2026-06-01"): give it once\nRun \'tempora help facts\' for usage.\n');
    expect(existsSync(data)).toBe(false);
  });

  it('is refused for a global option on either side of the command, and for a short spelling', async () => {
    const data = await tempora('--data', join(dir, 'a'), 'facts', '--data', join(dir, 'b'));
    expect(data.code).toBe(2);
    expect(data.stderr).toBe(`tempora: --data is given twice ("${join(dir, 'a')}" and "${join(dir, 'b')}"): give it once\nRun 'tempora help facts' for usage.\n`);

    const out = await tempora('export', '-o', join(dir, 'one.json'), '--out', join(dir, 'two.json'), '--data', join(dir, 'data'));
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^tempora: --out is given twice \(".*one\.json" and ".*two\.json"\): give it once\n/);
    expect(existsSync(join(dir, 'one.json')) || existsSync(join(dir, 'two.json'))).toBe(false);

    const thrice = await tempora('facts', '--tz', 'UTC', '--tz', 'Asia/Tokyo', '--tz', 'UTC', '--data', join(dir, 'data'));
    expect(thrice.code).toBe(2);
    expect(thrice.stderr).toMatch(/^tempora: --tz is given 3 times \("UTC", "Asia\/Tokyo" and "UTC"\): give it once\n/);
  });

  it('is fine for a flag, which says the same once or twice', async () => {
    const flags = await tempora('facts', '--help', '-h', '--json', '--json');
    expect(flags.stderr).toBe('');
    expect(flags.code).toBe(0);
    expect(flags.stdout).toMatch(/^Usage: tempora facts /);
  });
});
