/** `npm run demo` (after its build step): a token from the embedded service and its information. */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { cleanEnv } from '../helpers/cli.js';

test('the demo obtains a token, reuses it from the cache and shows its information', () => {
  const script = resolve(import.meta.dirname, '../../scripts/demo.mjs');
  const r = spawnSync(process.execPath, [script], { env: cleanEnv(), encoding: 'utf8', timeout: 60_000 });
  expect(r.stderr).not.toMatch(/demo failed/);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/"source": "cache"/);
  expect(r.stdout).toMatch(/^status\s+approved$/m);
  expect(r.stdout).toMatch(/^email\s+demo@example\.com$/m);
});
