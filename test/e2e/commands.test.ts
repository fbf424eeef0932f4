/** `info`, `refresh`, `configure`, `status`, `logout` and `completion` through the built CLI. */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { expectMode } from '../helpers/file-modes.js';
import { serveForFile } from '../helpers/serve.js';
import { credentialsPath, DEMO, demoEnv } from './env.js';

const serve = serveForFile();

describe('tokencli info', () => {
  test('a readable table with masked tokens, no colour off a terminal, exit 0', async () => {
    const env = demoEnv(serve.baseUrl);
    const token = (await runCli(['token'], { env })).stdout.trim();
    const r = await runCli(['info'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^email\s+demo@example\.com$/m);
    expect(r.stdout).toMatch(/^application\s+Demo App$/m);
    expect(r.stdout).toMatch(/^status\s+approved$/m);
    expect(r.stdout).toMatch(/^token type\s+BearerToken$/m);
    expect(r.stdout).toMatch(/^expires\s+in (59m|1h)/m);
    expect(r.stdout).toContain(`${token.slice(0, 4)}…${token.slice(-4)}`);
    expect(r.stdout).not.toContain(token);
    expect(r.stdout).not.toContain('\u001b[');
    const shown = await runCli(['info', '--show-tokens'], { env });
    expect(shown.stdout).toContain(token);
  });

  test('--json: every field, redirect under redirect_uri, expires_at', async () => {
    const env = demoEnv(serve.baseUrl);
    const token = (await runCli(['token'], { env })).stdout.trim();
    const r = await runCli(['info', '--json', '--show-tokens'], { env });
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({
      access_token: token,
      token_type: 'BearerToken',
      status: 'approved',
      email: DEMO.email,
      app_name: 'Demo App',
    });
    expect(info.redirect_uri).toMatch(/^http/);
    expect(info.redirect_url).toBeUndefined();
    expect(Date.parse(info.expires_at)).toBeGreaterThan(Date.now());
  });

  test('--token-stdin inspects a piped token; a bogus one is refused with exit 3', async () => {
    const env = demoEnv(serve.baseUrl);
    const token = (await runCli(['token', '--store', 'none'], { env })).stdout;
    const ok = await runCli(['info', '--token-stdin', '--json', '--show-tokens'], { env, input: token });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).access_token).toBe(token.trim());
    const bad = await runCli(['info', '--token-stdin'], { env, input: 'not-a-real-token-0123456789\n' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/401/);
  });

  test('nothing stored: exit 4', async () => {
    const r = await runCli(['info'], { env: demoEnv(serve.baseUrl) });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^hint: /m);
  });
});

describe('tokencli refresh', () => {
  test('without a stored refresh token (client credentials give none): exit 4', async () => {
    const env = demoEnv(serve.baseUrl);
    expect((await runCli(['token'], { env })).code).toBe(0);
    const r = await runCli(['refresh'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/refresh token/);
    expect(r.stderr).toMatch(/tokencli login/);
  });
});

describe('configure, status, logout', () => {
  test('configure saves settings without the secret, and the secret in the store', async () => {
    const configDir = tempDir();
    const env = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file' };
    const r = await runCli(
      ['configure', '--base-url', serve.baseUrl, '--client-id', DEMO.clientId, '--client-secret-stdin'],
      { env, input: `${DEMO.clientSecret}\n` },
    );
    expect(r.code).toBe(0);
    const config = readFileSync(join(configDir, 'config.json'), 'utf8');
    expect(JSON.parse(config)).toEqual({
      // The profile records the store that holds its secret.
      profiles: { default: { base_url: serve.baseUrl, client_id: DEMO.clientId, store: 'file' } },
    });
    expect(config).not.toContain(DEMO.clientSecret);
    expectMode(join(configDir, 'config.json'), 0o600);
    expect(readFileSync(credentialsPath(configDir), 'utf8')).toContain(DEMO.clientSecret);

    // The saved profile and secret are enough for the client-credentials grant.
    const token = await runCli(['token', '--password-stdin', '--email', DEMO.email], {
      env,
      input: DEMO.password,
    });
    expect(token.stderr).toBe('');
    expect(token.code).toBe(0);
  });

  test('configure refuses a plain-http remote base URL and writes nothing', async () => {
    const configDir = tempDir();
    const r = await runCli(
      ['configure', '--base-url', 'http://example.com', '--client-id', 'x', '--no-secret'],
      {
        env: { TOKENCLI_CONFIG_DIR: configDir },
      },
    );
    expect(r.code).toBe(2);
    expect(() => statSync(join(configDir, 'config.json'))).toThrow();
  });

  test('status lists profiles with expiry and the store; logout removes tokens; --purge the secret', async () => {
    const configDir = tempDir();
    const env = demoEnv(serve.baseUrl, configDir);
    await runCli(['configure', '--no-secret'], { env });
    expect((await runCli(['token'], { env })).code).toBe(0);

    const status = await runCli(['status', '--json'], { env });
    expect(status.code).toBe(0);
    const doc = JSON.parse(status.stdout);
    expect(doc.store.kind).toBe('file');
    expect(doc.profiles).toEqual([
      expect.objectContaining({
        profile: 'default',
        base_url: serve.baseUrl,
        email: DEMO.email,
        logged_in: true,
      }),
    ]);
    const text = await runCli(['status'], { env });
    expect(text.stdout).toMatch(/access token\s+expires in/);

    const out = await runCli(['logout'], { env });
    expect(out.code).toBe(0);
    expect(JSON.parse((await runCli(['status', '--json'], { env })).stdout).profiles[0].logged_in).toBe(
      false,
    );
    expect((await runCli(['info'], { env })).code).toBe(4);
  });

  test('profiles are kept apart', async () => {
    const configDir = tempDir();
    const env = demoEnv(serve.baseUrl, configDir);
    const a = (await runCli(['--profile', 'a', 'token'], { env })).stdout;
    const b = (await runCli(['token', '--profile', 'b'], { env })).stdout;
    expect(a).not.toBe(b);
    expect((await runCli(['token'], { env: { ...env, TOKENCLI_PROFILE: 'a' } })).stdout).toBe(a);
    const bad = await runCli(['--profile', '../etc', 'token'], { env });
    expect(bad.code).toBe(2);
  });
});

describe('tokencli completion', () => {
  test.each(['bash', 'zsh', 'fish'])('%s prints a script naming every command', async (shell) => {
    const r = await runCli(['completion', shell]);
    expect(r.code).toBe(0);
    for (const command of ['login', 'token', 'info', 'serve', 'logout']) expect(r.stdout).toContain(command);
    expect(r.stdout).toContain('min-ttl');
  });

  test.skipIf(process.platform === 'win32')(
    'the bash script is valid bash (skipped on Windows: bash there may be WSL’s launcher or none)',
    async () => {
      const r = await runCli(['completion', 'bash']);
      const check = spawnSync('bash', ['-n'], { input: r.stdout });
      expect(check.status).toBe(0);
    },
  );

  test('an unknown shell is a usage error', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });
});
