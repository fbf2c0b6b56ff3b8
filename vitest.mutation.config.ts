/**
 * The tests that pin the temporal core, for mutation testing (`npm run mutation`, stryker.config.mjs).
 * Only these run against each mutant, so a run takes minutes; `npm test` still runs everything.
 * Keep out test files that write to a memory outside a test (at module scope or in beforeAll): what
 * runs there cannot be traced to a test, so Stryker would run every test against those mutants.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/unit/memory-temporal-rules.test.ts',
      'test/unit/memory-properties.test.ts',
      'test/unit/temporal-boundaries.test.ts',
      'test/unit/temporal-write-paths.test.ts',
      'test/unit/temporal-learn-apply.test.ts',
      'test/unit/memory-store.test.ts',
      'test/unit/memory-ingestion.test.ts',
      // the time-expression resolver (electron/memory/temporal/time-expression*.ts), where it exists
      'test/unit/time-expression.test.ts',
      'test/unit/memory-observe-phrases.test.ts',
      'test/unit/temporal-one-version-per-write.test.ts',
      'test/unit/time-zones-precision.test.ts',
      // mutants of the slot resolver that survived (issue 12), and the write batch (issue 26)
      'test/unit/slot-resolver-mutants.test.ts',
      'test/unit/write-batch-reports.test.ts',
      'test/unit/write-batch-differential.test.ts',
      'test/unit/temporal-slot-lookups.test.ts',
      'test/unit/slot-resolver-survivors.test.ts',
      // a name's entity candidates (npm run mutation -- --mutate electron/memory/text-search/entity-candidates.ts,electron/memory/store/entity-names-index.ts)
      'test/unit/entity-candidates.test.ts',
    ],
    environment: 'node',
    setupFiles: ['test/setup/mutation-no-shrink.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // better-sqlite3 is a native addon: forked processes, as in vitest.config.ts.
    pool: 'forks',
    env: { LANCEDB_LOG: 'error', TEMPORA_THREADS: '1' },
  },
});
