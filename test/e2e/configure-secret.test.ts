/**
 * What `configure` does with a client secret, as the README says it: it saves it unchecked (no
 * request of the service checks a client secret alone: the client-credentials grant needs the
 * user's password too, and its refusal, subcode 017, does not say which was wrong), and it asks
 * no service for it. A secret typed at the prompt of `login` or `token` is the one kept only once
 * the service accepted it; the README must not promise that of `configure`.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readStoredCredentials } from '../helpers/stored-credentials.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

afterAll(removeTempDirs);

test('configure saves the client secret it is given without asking the service', async () => {
  const configDir = tempDir('tokencli-configure-secret-');
  // Nothing listens on port 9: a check against the service would fail (exit 5).
  const r = await runCli(
    ['--base-url', 'http://127.0.0.1:9', '--client-id', 'app', 'configure', '--client-secret-stdin'],
    { env: { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file' }, input: 'not-checked' },
  );
  expect(r.code, r.stderr).toBe(0);
  expect(readStoredCredentials(configDir).profiles.default?.client_secret).toBe('not-checked');
});

test('the README says so, and keeps "once the service has accepted it" for the prompts of login and token', () => {
  const readme = readFileSync(join(resolve(import.meta.dirname, '../..'), 'README.md'), 'utf8').replace(
    /\s+/g,
    ' ',
  );
  expect(readme).toContain('`configure` saves a client secret unchecked');
  expect(readme).toContain(
    'one typed at the prompt of `login` or `token` is kept once the service has accepted it',
  );
});
