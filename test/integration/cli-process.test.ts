/**
 * The real `tempora` binary, spawned as a process: `node --import tsx electron/cli/main.ts` (the
 * fastest start, about 1 s here; `npx tsx` is about twice as slow) and once through the documented
 * `npm run --silent tempora -- <command>`. The in-process tests cover the commands in depth.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, temporaCommand } from './cli-helpers';
import type { FactRecord } from '../../shared/memory-schema';

let dir: string;
let data: string;

// The zone is named, though nothing here turns on it: no test reads the machine's.
const env = { TEMPORA_TZ: 'UTC' };
const tempora = (...args: string[]) => temporaCommand(args, { env });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-process-'));
  data = join(dir, 'data');
  const seed = [
    { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', valid_at: null, invalid_at: null, cardinality: 'one' },
    { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' },
  ];
  writeFileSync(join(dir, 'seed.jsonl'), seed.map((s) => JSON.stringify(s)).join('\n') + '\n');
  writeFileSync(join(dir, 'broken.jsonl'), `${JSON.stringify(seed[0])}\n{"subject":\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the tempora process', () => {
  it('observes a file and answers as of a date', async () => {
    const observed = await tempora('observe', join(dir, 'seed.jsonl'), '--data', data, '--json');
    expect(observed.stderr).toBe('');
    expect(observed.code).toBe(0);
    // One file, one write: A is stored closed by B, never open (one batch: temporal/write-batch.ts).
    expect(JSON.parse(observed.stdout)).toMatchObject({ observations: 2, factsAdded: 2, factsClosed: 0 });

    const asOf = await tempora('--data', data, 'facts', '--as-of', '2026-09-10', '--json');
    expect(asOf.code).toBe(0);
    expect((JSON.parse(asOf.stdout) as FactRecord[]).map((f) => f.object)).toEqual(['A']);
  });

  it('runs as the README says: npm run --silent tempora -- <command>', async () => {
    const result = await exitOf('npm', ['run', '--silent', 'tempora', '--', 'facts', '--as-of', '2026-09-20', '--json', '--data', data], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as FactRecord[]).map((f) => f.object)).toEqual(['B']);
  });

  it('exits 1 on bad input with one line on stderr and no stack trace, and 2 on a usage error', async () => {
    const bad = await tempora('observe', join(dir, 'broken.jsonl'), '--data', data);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(new RegExp(`^tempora: ${join(dir, 'broken.jsonl').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: not JSON \\(.+\\)\\n$`));

    const usage = await tempora('facts', '--bogus', '--data', data);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe("tempora: unknown option --bogus for facts\nRun 'tempora help facts' for usage.\n");
  });

  it('exports the whole memory to stdout, and reads TEMPORA_DATA_DIR', async () => {
    const exported = await temporaCommand(['export'], { env: { ...env, TEMPORA_DATA_DIR: data } });
    expect(exported.code).toBe(0);
    const doc = JSON.parse(exported.stdout) as { format: string; facts: unknown[] };
    expect(doc.format).toBe('tempora.memory');
    expect(doc.facts).toHaveLength(2);
  });
});
