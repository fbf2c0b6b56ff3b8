// @ts-check
/**
 * Mutation testing of the temporal core (issue 12): `npm run mutation`. Not part of `npm test`.
 * Mutates the rules, the slot resolver, the time-axis queries, learn.ts, the write batch (one
 * resolution per slot per write) and the time-expression resolver with its zone arithmetic, and runs only the tests that pin them
 * (vitest.mutation.config.ts). The HTML and JSON reports land in reports/mutation/.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false, pool: 'forks' },
  mutate: [
    'electron/memory/temporal/temporal-rules.ts',
    'electron/memory/temporal/slot-resolver.ts',
    'electron/memory/temporal/fact-query.ts',
    'electron/memory/temporal/learn.ts',
    'electron/memory/temporal/write-batch.ts',
    'electron/memory/temporal/time-expression*.ts',
    'electron/memory/temporal/time-zone.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 20_000,
  // The first run (every test, instrumented) on busy cores takes longer than Stryker's default 5 minutes.
  dryRunTimeoutMinutes: 30,
  checkers: [],
  // The sandbox is a copy of the project; node_modules is symlinked into it (symlinkNodeModules,
  // the default), so better-sqlite3's native addon loads from the real node_modules.
  ignorePatterns: ['out', 'dist', 'build', 'coverage', 'test-results', 'reports', '.tempora-data', '*.gguf', '*.log'],
  symlinkNodeModules: true,
  tempDirName: '.stryker-tmp',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: 90 },
  incremental: false,
  incrementalFile: 'reports/stryker-incremental.json',
};
export default config;
