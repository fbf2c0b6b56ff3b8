#!/usr/bin/env node
/**
 * The long fuzz run (issue 13; not part of `npm test`, which runs the same properties a few hundred
 * times each): every fast-check property of test/unit/fuzz-*.test.ts — observation lines, import
 * documents, JSON syntax errors, model answers — run N times each.
 *
 *   node scripts/fuzz-long.mjs [--runs N] [--seed S] [--only NAME]
 *
 * --runs N   runs per property (default 20000; the bounded run in npm test uses 100–400)
 * --seed S   replay a failure with the seed fast-check printed
 * --only X   only the fuzz files whose name contains X (e.g. model-output)
 *
 * Exit status: vitest's (1 when a property failed; the counterexample and its seed are printed).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

let options;
try {
  ({ values: options } = parseArgs({
    options: { runs: { type: 'string', default: '20000' }, seed: { type: 'string' }, only: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  }));
} catch (error) {
  console.error(`fuzz-long: ${error.message}`);
  process.exit(2);
}
if (options.help) {
  console.log('Usage: node scripts/fuzz-long.mjs [--runs N] [--seed S] [--only NAME]');
  process.exit(0);
}
if (!/^\d+$/.test(options.runs) || Number(options.runs) < 1) {
  console.error(`fuzz-long: --runs must be a positive whole number, got ${JSON.stringify(options.runs)}`);
  process.exit(2);
}
if (options.seed !== undefined && !/^-?\d+$/.test(options.seed)) {
  console.error(`fuzz-long: --seed must be a whole number, got ${JSON.stringify(options.seed)}`);
  process.exit(2);
}

const files = readdirSync(join(root, 'test/unit'))
  .filter((name) => /^fuzz-.*\.test\.ts$/.test(name) && (options.only === undefined || name.includes(options.only)))
  .map((name) => `test/unit/${name}`);
if (files.length === 0) {
  console.error('fuzz-long: no fuzz files match');
  process.exit(2);
}

console.log(`fuzz-long: ${files.length} file(s), ${options.runs} runs per property${options.seed ? `, seed ${options.seed}` : ''}`);
const started = Date.now();
const result = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files, '--testTimeout', '0'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: options.runs, ...(options.seed !== undefined ? { FUZZ_SEED: options.seed } : {}) },
});
console.log(`fuzz-long: done in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(result.status ?? 1);
