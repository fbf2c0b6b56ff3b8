/**
 * Time options read by the one reader MCP and the app use (issue 27, item 7): an impossible date or
 * UTC offset, or an ambiguous numeric date, exits 1 with one sentence naming the option and changes
 * nothing; a numeric date with one reading (its day over 12, or equal to its month) is read.
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
const TOKYO = { TEMPORA_TZ: 'Asia/Tokyo' };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-time-args-'));
  clock = steppingClock('2026-09-20T00:00:00.000Z');
  const seed = [
    { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T00:00:00+09:00', cardinality: 'one' },
    { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', reference_time: '2026-09-15T00:00:00+09:00', cardinality: 'one' },
  ];
  writeFileSync(join(dir, 'seed.jsonl'), seed.map((s) => JSON.stringify(s)).join('\n') + '\n');
  expect(runTempora(dir, clock, ['observe', 'seed.jsonl'], TOKYO)).toMatchObject({ code: 0, err: '' });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const snapshot = () => {
  const doc = JSON.parse(runTempora(dir, clock, ['export'], TOKYO).out) as Record<string, unknown>;
  delete doc.exported_at;
  return doc;
};

function refused(argv: string[]): string {
  const before = snapshot();
  const result = runTempora(dir, clock, argv, TOKYO);
  expect(result.code).toBe(1);
  expect(result.out).toBe('');
  expect(snapshot()).toEqual(before);
  return result.err;
}

function managers(asOf: string): string[] {
  const result = runTempora(dir, clock, ['facts', '--as-of', asOf, '--json'], TOKYO);
  expect(result).toMatchObject({ code: 0, err: '' });
  return (JSON.parse(result.out) as FactRecord[]).map((f) => f.object);
}

describe('time options, read as MCP reads its arguments', () => {
  it('refuses an impossible date or offset in one sentence naming the option', () => {
    expect(refused(['facts', '--as-of', '2026-13-01'])).toBe('tempora: --as-of: 2026-13-01 is not a date: there is no month 13\n');
    expect(refused(['search', 'manager', '--known-at', '2026-09-10T09:00+25:00'])).toBe('tempora: --known-at: 2026-09-10T09:00+25:00 is not a time: there is no UTC offset +25:00\n');
    const [fact] = JSON.parse(runTempora(dir, clock, ['facts', '--json'], TOKYO).out) as FactRecord[];
    expect(refused(['close', fact!.id, '--at', '31/02/2027'])).toBe('tempora: --at: 31/02/2027 is not a date: February 2027 has 28 days\n');
    // Written the Japanese way, with or without its year, the same reason (not "not a time").
    expect(refused(['facts', '--as-of', '2月30日'])).toBe('tempora: --as-of: 2月30日 is not a date: February has at most 29 days\n');
    expect(refused(['facts', '--as-of', '2027年2月29日'])).toBe('tempora: --as-of: 2027年2月29日 is not a date: February 2027 has 28 days\n');
    expect(refused(['facts', '--as-of', '13月1日'])).toBe('tempora: --as-of: 13月1日 is not a date: there is no month 13\n');
  });

  it('refuses an ambiguous numeric date, naming both readings', () => {
    expect(refused(['facts', '--as-of', '10/09/2026'])).toBe(
      'tempora: --as-of: 10/09/2026 is ambiguous: 10 Sep 2026 (day first) or 9 Oct 2026 (month first)? Write 2026-09-10 or 2026-10-09 (or "10 Sep 2026"); a numeric date is read only when its day is over 12 or equals its month\n',
    );
  });

  it('refuses the same in an observed line, naming file, line and field', () => {
    const line = { subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-20T08:00:00+09:00', valid_at: '10/09/2026' };
    writeFileSync(join(dir, 'bad.jsonl'), `${JSON.stringify(line)}\n`);
    expect(refused(['observe', 'bad.jsonl'])).toMatch(/^tempora: bad\.jsonl:1: valid_at: 10\/09\/2026 is ambiguous: 10 Sep 2026 \(day first\) or 9 Oct 2026 \(month first\)\? Write 2026-09-10 or 2026-10-09/);
  });

  it('reads a numeric date with one reading, either way round', () => {
    expect(managers('14/09/2026')).toEqual(['A']);
    expect(managers('09/14/2026')).toEqual(['A']);
    expect(managers('15/09/2026')).toEqual(['B']);
    expect(managers('09/15/2026')).toEqual(['B']);
  });
});
