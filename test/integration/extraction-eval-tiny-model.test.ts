/**
 * The extraction evaluation on the real model path: node-llama-cpp with the tiny random-weights GGUF
 * (written here), one thread, CPU. Its answers are nonsense, so no threshold is asserted: the run
 * must complete over every message it picked, and report numbers that are ratios or "—". Then
 * `npm run eval -- --extraction` itself (test/eval/run.ts) prints the same report as JSON.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../eval/extraction/case-schema';
import { runExtractionEval } from '../eval/extraction/run-extraction';
import { COMPONENTS, type Report, type Scores } from '../eval/extraction/score';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

let dir: string;
let model: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-extraction-eval-'));
  model = join(dir, 'tiny.gguf');
  await writeTinyGguf(model);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const inRange = (x: number | null) => x === null || (x >= 0 && x <= 1);

function expectSane(s: Scores): void {
  for (const c of COMPONENTS) {
    expect(inRange(s.recall[c]), `recall ${c}`).toBe(true);
    expect(inRange(s.precision[c]), `precision ${c}`).toBe(true);
    expect(s.recall[c] === null).toBe(s.expected === 0);
  }
  expect(inRange(s.nothingLearned)).toBe(true);
  expect(inRange(s.contradictions.rate)).toBe(true);
  expect(s.failed).toBeLessThanOrEqual(s.messages);
}

describe('the extraction evaluation with the tiny real model', () => {
  it('runs a dozen messages through the real path and reports numbers in range', async () => {
    const lines: string[] = [];
    const result = await runExtractionEval({ model, threads: 1, gpu: false, limit: 12, log: (l) => lines.push(l) });
    const r: Report = result.report;
    expect(result.model).toMatchObject({ name: 'tempora-tiny' });
    expect(r.overall.messages).toBe(result.outcomes.length);
    expect(r.overall.messages).toBeGreaterThanOrEqual(12);
    // taken in turn from each category and both languages
    expect(new Set(result.outcomes.map((o) => o.lang))).toEqual(new Set(['en', 'ja']));
    expect(new Set(result.outcomes.map((o) => o.category)).size).toBeGreaterThanOrEqual(4);
    expectSane(r.overall);
    for (const c of CATEGORIES) expectSane(r.byCategory[c]);
    const calls = result.outcomes.filter((o) => o.error === null).map((o) => o.usage.modelCalls);
    expect(calls.every((n) => n >= 1 && n <= 2)).toBe(true);
    expect(lines[0]).toMatch(/^loaded tempora-tiny .* 1 threads/);
  }, 300_000);

  it('is what `npm run eval -- --extraction --model PATH --json` prints', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/eval/run.ts', '--extraction', '--model', model, '--threads', '1', '--limit', '3', '--json'], {
      env: { ...process.env, TEMPORA_GPU: 'off' },
      maxBuffer: 32 * 1024 * 1024,
      timeout: 240_000,
    });
    const out = JSON.parse(stdout) as { model: { name: string }; report: Report; outcomes: unknown[] };
    expect(out.model.name).toBe('tempora-tiny');
    expect(out.report.overall.messages).toBe(out.outcomes.length);
    expect(out.outcomes.length).toBeGreaterThanOrEqual(3);
    expectSane(out.report.overall);
  }, 300_000);
});
