import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Native addons (better-sqlite3, node-llama-cpp, LanceDB) are safest in forked processes.
    pool: 'forks',
    env: { LANCEDB_LOG: 'error', TEMPORA_THREADS: '1' },
  },
});
