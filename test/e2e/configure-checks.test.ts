/**
 * `configure` refuses at the door what a later command would refuse, with the same check: a
 * redirect URI `login` cannot serve (not loopback http), an empty `--client-id ""`, and a
 * `--timeout` outside 1–3600 s (refused by every command, not only configure). Each is exit 2,
 * one error line and a hint, and the profile is left as it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

afterAll(removeTempDirs);

const BASE_URL = 'http://127.0.0.1:9';
const env = (configDir: string) => ({ TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file' });

async function configured(): Promise<{ configDir: string; before: string }> {
  const configDir = tempDir('tokencli-configure-checks-');
  const r = await runCli(['--base-url', BASE_URL, '--client-id', 'app', 'configure', '--no-secret'], {
    env: env(configDir),
  });
  expect(r.code, r.stderr).toBe(0);
  return { configDir, before: readFileSync(join(configDir, 'config.json'), 'utf8') };
}

test.each([
  [
    'a redirect URI that is not loopback',
    ['configure', '--no-secret', '--redirect-uri', 'https://app.example.com/callback'],
    /^error: invalid --redirect-uri "https:\/\/app\.example\.com\/callback": .*loopback/,
    /^hint: use a loopback http URL/,
  ],
  [
    'a redirect URI that is not a URL',
    ['configure', '--no-secret', '--redirect-uri', 'callback'],
    /^error: invalid --redirect-uri "callback": not a URL$/,
    /^hint: use a loopback http URL/,
  ],
  [
    'an empty --client-id',
    ['--client-id', '', 'configure', '--no-secret'],
    /^error: --client-id: the value is empty$/,
    /^hint: /,
  ],
  [
    'an empty --base-url',
    ['--base-url', '', 'configure', '--no-secret'],
    /^error: --base-url: the value is empty$/,
    /^hint: /,
  ],
  [
    'a --timeout below one second',
    ['--timeout', '0.0001', 'configure', '--no-secret'],
    /^error: --timeout: "0\.0001" is not a timeout in seconds$/,
    /^hint: give a number of seconds between 1 and 3600/,
  ],
])('configure refuses %s: exit 2, nothing changed', async (_, args, error, hint) => {
  const { configDir, before } = await configured();
  const r = await runCli(args, { env: env(configDir) });
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(error);
  expect(lines[1]).toMatch(hint);
  expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
});

test('a loopback redirect URI is saved as login will use it', async () => {
  const { configDir } = await configured();
  const r = await runCli(['configure', '--no-secret', '--redirect-uri', 'http://localhost:0/cb'], {
    env: env(configDir),
  });
  expect(r.code, r.stderr).toBe(0);
  const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
  expect(config.profiles.default.redirect_uri).toBe('http://localhost:0/cb');
});

test.each([['token'], ['status']])('--timeout 0.0001 is refused by %s too (exit 2)', async (command) => {
  const { configDir } = await configured();
  const r = await runCli(['--timeout', '0.0001', command], { env: env(configDir) });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/^error: --timeout: "0\.0001" is not a timeout in seconds$/m);
});
