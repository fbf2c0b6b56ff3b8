/**
 * `tempora reindex` and `tempora ingest` as their own processes, with the tiny random-weights GGUF:
 * their progress line is rewritten in place only where standard error is a terminal (here
 * TEMPORA_PROGRESS=1 stands in for one, the stderr being a pipe). Where it is a log file or a pipe,
 * no carriage return or erase code is written, and the summary at the end is a plain line.
 *
 * (`tempora models pull` shares the same line but has no path that reaches its progress without the
 * network: its catalogue is fixed and every download leaves the machine.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../fixtures/tiny-gguf';
import { temporaProcess } from './cli-helpers';

let dir: string;
let model: string;

// A pipe, not a terminal: TEMPORA_PROGRESS cleared so the caller's environment cannot force the line.
const PIPED = { TEMPORA_TZ: 'UTC', TEMPORA_THREADS: '1', TEMPORA_PROGRESS: '' };
const TERMINAL = { ...PIPED, TEMPORA_PROGRESS: '1' };
// eslint-disable-next-line no-control-regex -- what a log file must never get
const CONTROL = /[\r\x1b]/;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-progress-log-'));
  model = join(dir, 'tiny.gguf');
  await writeTinyGguf(model);
  const messages = [
    { role: 'user', content: 'My manager is Sato.', time: '2026-09-01T09:00:00+09:00', conversation: 'c1' },
    { role: 'user', content: 'I live in Kyoto.', time: '2026-09-02T09:00:00+09:00', conversation: 'c1' },
  ];
  writeFileSync(join(dir, 'two.jsonl'), messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
  const observations = [
    { subject: 'me', predicate: 'manager', object: 'Aoki', fact: 'My manager is Aoki.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' },
    { subject: 'me', predicate: 'lives in', object: 'Osaka', fact: 'I live in Osaka.', reference_time: '2026-09-02T10:00:00+09:00', cardinality: 'one' },
  ];
  writeFileSync(join(dir, 'seed.jsonl'), observations.map((o) => JSON.stringify(o)).join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('progress lines only on a terminal', () => {
  it('reindex: a log file gets no carriage returns or erase codes, and the summary is a plain line', async () => {
    const data = join(dir, 'reindex');
    expect((await temporaProcess(['observe', join(dir, 'seed.jsonl'), '--data', data], PIPED)).code).toBe(0);
    const reindex = ['reindex', '--embedding-model', model, '--threads', '1', '--data', data];

    const logged = await temporaProcess(reindex, PIPED);
    expect(logged.code, logged.stderr).toBe(0);
    expect(logged.stderr).not.toMatch(CONTROL);
    expect(logged.stderr).toBe('');
    expect(logged.stdout).toMatch(/^Vector index rebuilt: \d+ items embedded\.\n$/);
    const items = Number(/rebuilt: (\d+) items/.exec(logged.stdout)![1]);
    expect(items).toBeGreaterThan(0);

    // On a terminal the line counts up in place and is cleared before the summary.
    const shown = await temporaProcess(reindex, TERMINAL);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toContain(`\rembedding ${items}/${items}\x1b[K`);
    // eslint-disable-next-line no-control-regex
    expect(shown.stderr).toMatch(/^(\rembedding \d+\/\d+\x1b\[K)+\r\x1b\[K$/);
    expect(shown.stdout).toBe(`Vector index rebuilt: ${items} items embedded.\n`);
  }, 120_000);

  it('ingest: a log file gets no carriage returns or erase codes, and the summary is a plain line', async () => {
    const ingest = (data: string) => ['ingest', join(dir, 'two.jsonl'), '--model', model, '--embedding-model', model, '--threads', '1', '--data', join(dir, data)];

    const logged = await temporaProcess(ingest('ingest-logged'), PIPED);
    expect(logged.code, logged.stderr).toBe(0);
    expect(logged.stderr).not.toMatch(CONTROL);
    // Only a failed model call that is retried is said, each on a line of its own.
    for (const line of logged.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^\[\d\/2\] learned \(retrying after: .+\)$/);
    expect(logged.stdout.split('\n')[0]).toMatch(/^Learned from 2 messages in [\d.]+ s: \d+ facts added, \d+ closed\.$/);

    const shown = await temporaProcess(ingest('ingest-shown'), TERMINAL);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toContain('\r[2/2] learned\x1b[K');
    expect(shown.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(shown.stdout.split('\n')[0]).toMatch(/^Learned from 2 messages in [\d.]+ s: \d+ facts added, \d+ closed\.$/);
  }, 120_000);
});
