import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Child processes and servers: two cores, so keep parallelism modest and deterministic.
    pool: 'forks',
    maxWorkers: 2,
  },
});
