import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Child processes and servers: two cores, so keep parallelism modest and deterministic.
    pool: 'forks',
    maxWorkers: 2,
    // A private TMPDIR per run that must be empty at the end; each file's temp dirs are removed.
    globalSetup: ['test/setup/private-tmpdir.ts'],
    setupFiles: ['test/setup/remove-temp-dirs.ts'],
  },
});
