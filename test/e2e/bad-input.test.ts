/**
 * Malformed input of every kind: one clear `error:` line, a `hint:` where one helps, exit 2, and
 * nothing stored lost or half-written (docs/contract.md §2.6, §4 "Bad input").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { writeStoredTokens } from '../helpers/stored-credentials.js';
import { demoEnv } from './env.js';

const serve = serveForFile();

function expectUsageError(r: { code: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const errors = r.stderr.split('\n').filter((line) => line.startsWith('error: '));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace without --verbose
}

describe('usage errors exit 2 with one error line', () => {
  test.each([
    [['token', '--min-ttl', '-5'], /--min-ttl/],
    [['token', '--min-ttl', '1.5'], /--min-ttl/],
    [['--timeout', 'abc', 'token'], /--timeout/],
    [['--timeout', '0', 'token'], /--timeout/],
    [['--store', 'vault', 'token'], /vault/],
    [['--profile', 'has space', 'token'], /profile/],
    [['--base-url', 'not a url', 'token'], /not a URL/],
    [['--base-url', 'ftp://tokens.example', 'token'], /scheme/],
    [['--base-url', 'https://user:pw@tokens.example', 'token'], /credentials in the URL/],
    [['token', '--password-stdin', '--client-secret-stdin'], /both want stdin/],
    [['nosuchcommand'], /unknown command/],
    [[], /./],
  ])('%j', async (args, pattern) => {
    const r = await runCli(args as string[], { env: demoEnv(serve.baseUrl) });
    if (args.length === 0) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/Usage: tokencli/);
      return;
    }
    expectUsageError(r, pattern);
  });

  test('a bad variable is named as the variable', async () => {
    const r = await runCli(['token'], { env: { ...demoEnv(serve.baseUrl), TOKENCLI_STORE: 'vault' } });
    expectUsageError(r, /TOKENCLI_STORE/);
    const t = await runCli(['token'], { env: { ...demoEnv(serve.baseUrl), TOKENCLI_TIMEOUT: '-1' } });
    expectUsageError(t, /TOKENCLI_TIMEOUT/);
  });

  test('--password-stdin with empty stdin says so', async () => {
    const env = { ...demoEnv(serve.baseUrl), TOKENCLI_PASSWORD: undefined };
    const r = await runCli(['token', '--password-stdin'], { env, input: '' });
    expectUsageError(r, /stdin was empty/);
  });

  test('no base URL or client id: the hint names the flag, the variable and configure', async () => {
    const configDir = tempDir();
    const r = await runCli(['token'], { env: { TOKENCLI_CONFIG_DIR: configDir } });
    expectUsageError(r, /no base URL/);
    expect(r.stderr).toMatch(/hint: .*--base-url.*TOKENCLI_BASE_URL.*tokencli configure/);
    const c = await runCli(['token'], {
      env: { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_BASE_URL: serve.baseUrl },
    });
    expectUsageError(c, /no client id/);
  });

  test('a broken config file names the file and the bad key, and is left as it was', async () => {
    const configDir = tempDir();
    const path = join(configDir, 'config.json');
    for (const [text, pattern] of [
      ['{"profiles": {', /not JSON/],
      ['{"profiles": {"default": {"base_uri": "https://x"}}}', /profiles\.default\.base_uri/],
      ['{"profiles": {"default": {"timeout": "30"}}}', /profiles\.default\.timeout must be a number/],
    ] as const) {
      writeFileSync(path, text, { mode: 0o600 });
      const r = await runCli(['token'], { env: { TOKENCLI_CONFIG_DIR: configDir } });
      expectUsageError(r, pattern);
      expect(r.stderr).toContain(path);
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
  });
});

describe('stored tokens are used only where they belong', () => {
  /** A record as the file store keeps it, for a service and client of the test's choosing. */
  function plantRecord(configDir: string, record: Record<string, unknown>): void {
    writeStoredTokens(configDir, record);
  }
  const soon = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
  /** An expired access token beside a refresh token the service never issued (as if revoked). */
  const staleRecordWithRevokedRefreshToken = () => ({
    base_url: serve.baseUrl,
    client_id: 'demo-client',
    access_token: 'expired-access-token-0000000000',
    token_type: 'BearerToken',
    expires_at: soon(-10),
    refresh_token: 'revoked-refresh-token-000000000',
    refresh_token_expires_at: soon(86_400),
    grant: 'authorization_code',
    obtained_at: new Date().toISOString(),
  });

  test('a record of another base URL or client id is not printed', async () => {
    for (const other of [{ base_url: 'http://127.0.0.1:1' }, { client_id: 'someone-else' }]) {
      const configDir = tempDir();
      plantRecord(configDir, {
        base_url: serve.baseUrl,
        client_id: 'demo-client',
        access_token: 'planted-token-of-another-service-000',
        token_type: 'BearerToken',
        expires_at: soon(3000),
        grant: 'client_credentials',
        obtained_at: new Date().toISOString(),
        ...other,
      });
      const r = await runCli(['token'], { env: demoEnv(serve.baseUrl, configDir) });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('planted-token');
    }
  });

  test('a refresh token the service refuses falls through to client credentials', async () => {
    const configDir = tempDir();
    plantRecord(configDir, staleRecordWithRevokedRefreshToken());
    const r = await runCli(['token', '--json'], { env: demoEnv(serve.baseUrl, configDir) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).source).toBe('client_credentials');
  });

  test('without credentials to fall back on, the refused refresh token is exit 3', async () => {
    const configDir = tempDir();
    plantRecord(configDir, staleRecordWithRevokedRefreshToken());
    const env = {
      ...demoEnv(serve.baseUrl, configDir),
      TOKENCLI_EMAIL: undefined,
      TOKENCLI_PASSWORD: undefined,
    };
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/invalid_grant/);
    const refresh = await runCli(['refresh'], { env });
    expect(refresh.code).toBe(3);
  });
});
