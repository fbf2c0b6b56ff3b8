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
    // expect.poll waits for the page or the engine to catch up; on two busy cores a round trip
    // through the bridge and a re-render can take more than the default second.
    expect: { poll: { timeout: 10_000 } },
  },
});
