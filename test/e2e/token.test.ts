/** `tokencli token` against a real `tokencli serve`, as scripts and CI jobs run it (docs/contract.md §2.3). */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { credentialsPath, DEMO, demoEnv, tokenRequests } from './env.js';

const serve = serveForFile();

describe('tokencli token', () => {
  test('client credentials from the environment, then the cache without a request', async () => {
    const env = demoEnv(serve.baseUrl);
    const before = tokenRequests(serve.logs());
    const first = await runCli(['token'], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^\S{20,}\n$/);
    const second = await runCli(['token'], { env });
    expect(second).toMatchObject({ code: 0, stdout: first.stdout });
    expect(tokenRequests(serve.logs()) - before).toBe(1);
  });

  test('--json has the documented fields and names the source', async () => {
    const env = demoEnv(serve.baseUrl);
    const fresh = JSON.parse((await runCli(['token', '--json'], { env })).stdout);
    expect(fresh).toMatchObject({
      token_type: 'BearerToken',
      email: DEMO.email,
      profile: 'default',
      source: 'client_credentials',
    });
    expect(fresh.expires_in).toBeGreaterThan(3500);
    expect(Date.parse(fresh.expires_at)).toBeGreaterThan(Date.now() + 3_500_000);
    expect(fresh.refresh_token).toBeUndefined();
    const cached = JSON.parse((await runCli(['token', '--json'], { env })).stdout);
    expect(cached).toMatchObject({ access_token: fresh.access_token, source: 'cache' });
  });

  test('--force and a --min-ttl beyond the remaining lifetime both fetch a new token', async () => {
    const configDir = tempDir();
    const env = demoEnv(serve.baseUrl, configDir);
    /** One run that must print a token and nothing else. */
    const token = async (args: string[]) => {
      const run = await runCli(args, { env });
      expect(run, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout, args.join(' ')).toMatch(/^\S{20,}\n$/);
      return run.stdout;
    };
    const requests = tokenRequests(serve.logs());
    const a = await token(['token']);
    const b = await token(['token', '--force']);
    // As if b were obtained ten minutes ago: 50 minutes of its hour are left, less than 55.
    const credentials = JSON.parse(readFileSync(credentialsPath(configDir), 'utf8'));
    const stored = credentials.profiles.default.tokens;
    for (const key of ['obtained_at', 'expires_at']) {
      stored[key] = new Date(Date.parse(stored[key]) - 600_000).toISOString();
    }
    writeFileSync(credentialsPath(configDir), JSON.stringify(credentials), { mode: 0o600 });
    const c = await token(['token', '--min-ttl', '3300']);
    expect(new Set([a, b, c]).size).toBe(3);
    // The one kept is the last: a plain run now answers it from the cache. By then the service
    // has logged every request (it may batch its log lines for up to 10 ms): one per new token.
    expect(await token(['token'])).toBe(c);
    expect(tokenRequests(serve.logs()) - requests).toBe(3);
  });

  test('--password-stdin reads the password from stdin', async () => {
    const env = { ...demoEnv(serve.baseUrl), TOKENCLI_PASSWORD: undefined } as Record<
      string,
      string | undefined
    >;
    const r = await runCli(['token', '--password-stdin'], { env, input: `${DEMO.password}\n` });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  test('with nothing stored and no credentials: exit 4 with a hint naming login and the CI variables', async () => {
    const env = { ...demoEnv(serve.baseUrl), TOKENCLI_EMAIL: undefined, TOKENCLI_PASSWORD: undefined };
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: not logged in/m);
    expect(r.stderr).toMatch(/^hint: .*tokencli login.*TOKENCLI_EMAIL.*TOKENCLI_PASSWORD/m);
    expect(r.stdout).toBe('');
  });

  test('an email without a password off a terminal is a usage error naming the flag and variable', async () => {
    const env = { ...demoEnv(serve.baseUrl), TOKENCLI_PASSWORD: undefined };
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--password-stdin/);
    expect(r.stderr).toMatch(/TOKENCLI_PASSWORD/);
  });

  test('a wrong password: exit 3 naming the HTTP status and subcode 017, nothing stored', async () => {
    const configDir = tempDir();
    const env = { ...demoEnv(serve.baseUrl, configDir), TOKENCLI_PASSWORD: 'wrong-password' };
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/403/);
    expect(r.stderr).toMatch(/017/);
    expect(r.stderr).not.toContain('wrong-password');
    expect(r.stdout).toBe('');
    const stored = readdirSync(configDir);
    expect(stored.filter((f) => f.startsWith('credentials'))).toEqual([]);
  });

  test('an unknown client id: exit 3 with the service message', async () => {
    const env = { ...demoEnv(serve.baseUrl), TOKENCLI_CLIENT_ID: 'nobody' };
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/consumer key/);
  });

  test('a plain-http base URL that is not loopback is refused (exit 2) before any request', async () => {
    const env = { ...demoEnv('http://tokens.example.com') };
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*plain http/m);
    expect(r.stderr).toMatch(/^hint: .*https/m);
  });

  test('secrets are refused as flag values', async () => {
    for (const flag of ['--password', '--client-secret', '--token']) {
      const r = await runCli(['token', flag, 'canary-secret-value'], { env: demoEnv(serve.baseUrl) });
      expect(r.code).toBe(2);
      expect(r.stderr).not.toContain('canary-secret-value');
    }
  });

  test('--store none and --no-store leave nothing on disk', async () => {
    for (const args of [
      ['--store', 'none', 'token'],
      ['token', '--no-store'],
    ]) {
      const configDir = tempDir();
      const r = await runCli(args, { env: demoEnv(serve.baseUrl, configDir) });
      expect(r.code).toBe(0);
      expect(readdirSync(configDir).filter((f) => f.startsWith('credentials'))).toEqual([]);
    }
  });

  test('--no-store, an alias of --store none, does not answer from the cache either', async () => {
    const env = demoEnv(serve.baseUrl, tempDir());
    const cached = await runCli(['token'], { env });
    expect(cached.code).toBe(0);
    for (const args of [
      ['--store', 'none', 'token'],
      ['token', '--no-store'],
    ]) {
      const before = tokenRequests(serve.logs());
      const r = await runCli(args, { env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toBe(cached.stdout);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(tokenRequests(serve.logs()) - before).toBe(1);
    }
    expect((await runCli(['token'], { env })).stdout).toBe(cached.stdout);
  });

  test.skipIf(process.platform === 'win32')(
    'the file store is 0600 in a 0700 directory even under umask 000 (skipped on Windows: no umask or POSIX modes)',
    async () => {
      const configDir = join(tempDir(), 'nested', 'tokencli');
      const r = await runCli(['token'], { env: demoEnv(serve.baseUrl, configDir), umask: '000' });
      expect(r.code).toBe(0);
      expect(statSync(configDir).mode & 0o777).toBe(0o700);
      expect(statSync(credentialsPath(configDir)).mode & 0o777).toBe(0o600);
    },
  );

  test('a corrupt store is reported, backed up, treated as empty and then rewritten', async () => {
    const configDir = tempDir();
    const env = demoEnv(serve.baseUrl, configDir);
    expect((await runCli(['token'], { env })).code).toBe(0);
    writeFileSync(credentialsPath(configDir), '{"version": 1, "profiles": {', { mode: 0o600 });
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/corrupt|not valid|invalid/i);
    const backups = readdirSync(configDir).filter((f) => f.startsWith('credentials.json.corrupt'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(`${configDir}/${backups[0]}`, 'utf8')).toBe('{"version": 1, "profiles": {');
    expect(JSON.parse(readFileSync(credentialsPath(configDir), 'utf8'))).toHaveProperty(
      'profiles.default.tokens',
    );
  });

  test('five parallel calls with nothing stored make one exchange between them', async () => {
    const env = demoEnv(serve.baseUrl);
    const before = tokenRequests(serve.logs());
    const results = await Promise.all(Array.from({ length: 5 }, () => runCli(['token'], { env })));
    for (const r of results) expect(r.code).toBe(0);
    expect(new Set(results.map((r) => r.stdout)).size).toBe(1);
    // The service logs a request after answering it; give the log a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tokenRequests(serve.logs()) - before).toBe(1);
  });

  test('--verbose traces the exchange with every secret redacted', async () => {
    const configDir = tempDir();
    const env = demoEnv(serve.baseUrl, configDir);
    const r = await runCli(['--verbose', 'token', '--force'], { env });
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    expect(r.stderr).toMatch(/POST .*\/v2\/oauth\/token/);
    for (const secret of [DEMO.password, DEMO.clientSecret, token]) expect(r.stderr).not.toContain(secret);
    const info = await runCli(['--verbose', 'info'], { env });
    expect(info.code).toBe(0);
    expect(info.stderr).toMatch(/GET .*\/v2\/oauth\/tokeninfo/);
    for (const secret of [DEMO.password, DEMO.clientSecret, token]) expect(info.stderr).not.toContain(secret);
  });
});
