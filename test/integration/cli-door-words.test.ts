/**
 * Refusals a power user meets at the command line, in words and changing nothing: `edit --valid-at`
 * moving a fact's start to or past the end it already has (the memory said it in UTC, naming
 * invalid_at, an option not given), `close --at` at the end it already has ("the edit changes
 * nothing", saying neither which option nor which end), and `search` with nothing to search for
 * (it answered "No facts match """ and exit 0, where MCP refuses an empty query).
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
const tempora = (...argv: string[]) => runTempora(dir, clock, argv, env);
const history = () => JSON.parse(tempora('facts', '--history', '--json').out) as FactRecord[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-door-words-'));
  clock = steppingClock('2026-12-01T00:00:00.000Z');
  const line = { subject: 'me', predicate: 'studied at', object: '東大', fact: '東大で学んだ。', reference_time: '2026-11-01T09:00:00+09:00', valid_at: '2010-04-01', invalid_at: '2014年3月' };
  writeFileSync(join(dir, 'o.jsonl'), `${JSON.stringify(line)}\n`);
  expect(tempora('observe', 'o.jsonl').code).toBe(0);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the command line refuses in words and changes nothing', () => {
  it('edit --valid-at to or past the end the fact has: both times in the user’s zone, naming --valid-at', () => {
    const [fact] = history();
    const moved = tempora('edit', fact!.id, '--valid-at', '2015-04-01');
    expect(moved).toMatchObject({ code: 1, out: '' });
    expect(moved.err).toBe('tempora: --valid-at (1 Apr 2015) must be before the end the fact has (March 2014), times in Asia/Tokyo: give --invalid-at too, or --invalid-at none to reopen it\n');
    expect(history()).toEqual([fact]);
    // With an end of its own, or reopened, the same start is fine.
    expect(tempora('edit', fact!.id, '--valid-at', '2015-04-01', '--invalid-at', 'none').code).toBe(0);
  });

  it('close --at the end it already has: names --at and that end', () => {
    const [fact] = history();
    const again = tempora('close', fact!.id, '--at', '2014年3月');
    expect(again).toMatchObject({ code: 1, out: '' });
    expect(again.err).toBe('tempora: --at: the fact already ends then (ended March 2014); nothing changed\n');
    expect(history()).toEqual([fact]);
  });

  it('search with an empty or blank query is a usage error, as MCP refuses it', () => {
    for (const query of ['', '   ']) {
      const result = tempora('search', query);
      expect(result.code).toBe(2);
      expect(result.out).toBe('');
      expect(result.err).toMatch(/^tempora: search: QUERY is empty or only spaces \(give words to search for\)\n/);
    }
  });
});
