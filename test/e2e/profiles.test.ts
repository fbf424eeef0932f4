/**
 * Profiles that know their own state, through the built CLI against `tokencli serve`:
 * a profile records its service and store, every "no token" state has its own message and exit
 * code, refused cached tokens are dropped, `status --check`, `profile …`, masked JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CliResult, runCli, type ServeHandle, startServe } from '../helpers/cli.js';
import { keychainCanBeAway, skippedWithKeychain } from '../helpers/keychain-away.js';
import { plantedRecord, writeProfiles, writeStoredProfiles } from '../helpers/stored-credentials.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { hasScript, onTerminal, scriptMissing } from '../helpers/terminal.js';
import { credentialsPath, DEMO, demoEnv, tokenRequests } from './env.js';

let serve: ServeHandle;
beforeAll(async () => {
  serve = await startServe();
});
afterAll(async () => {
  await serve?.stop();
  removeTempDirs();
});

const soon = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

/** No D-Bus here: the default store rule would fall back to the file. */
function bareEnv(configDir: string, extra: Record<string, string | undefined> = {}) {
  return { TOKENCLI_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: undefined, ...extra };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests walk files they wrote themselves, several levels deep
function readJson(path: string): Record<string, any> {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function record(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return plantedRecord(serve.baseUrl, extra);
}

/** A profile `p` whose config records the demo service and the file store. */
function configured(configDir: string, name = 'p'): void {
  writeProfiles(configDir, { [name]: { base_url: serve.baseUrl, client_id: DEMO.clientId, store: 'file' } });
}

function expectError(r: CliResult, code: number, message: RegExp, hint?: RegExp): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
  if (hint) expect(r.stderr).toMatch(hint);
}

describe('a profile is self-contained', () => {
  test('a token obtained with flags once: the profile name alone works afterwards', async () => {
    const configDir = tempDir('tokencli-profiles-');
    const secrets = { TOKENCLI_CLIENT_SECRET: DEMO.clientSecret, TOKENCLI_PASSWORD: DEMO.password };
    const first = await runCli(
      [
        '--profile',
        'p',
        '--base-url',
        serve.baseUrl,
        '--client-id',
        DEMO.clientId,
        '--store',
        'file',
        'token',
        '--email',
        DEMO.email,
      ],
      { env: bareEnv(configDir, secrets) },
    );
    expect(first.code, first.stderr).toBe(0);
    const config = readFileSync(join(configDir, 'config.json'), 'utf8');
    expect(JSON.parse(config).profiles.p).toEqual({
      base_url: serve.baseUrl,
      client_id: DEMO.clientId,
      store: 'file',
    });
    expect(config).not.toContain(DEMO.clientSecret);
    expect(config).not.toContain(DEMO.password);

    const again = await runCli(['--profile', 'p', 'token'], { env: bareEnv(configDir) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    // The recorded store is used as it is: no keychain probe, no fallback notice.
    expect(again.stderr).toBe('');
  });

  test('a base URL that differs from the profile is used for the run, said on stderr, and kept apart', async () => {
    const configDir = tempDir('tokencli-profiles-');
    configured(configDir);
    writeStoredProfiles(configDir, { p: record() });
    const other = serve.baseUrl.replace('127.0.0.1', 'localhost');
    const r = await runCli(['--profile', 'p', '--base-url', other, 'token'], { env: bareEnv(configDir) });
    expectError(
      r,
      4,
      /warning: this run uses base URL http:\/\/localhost:\d+ \(from --base-url\) instead of the profile's http:\/\/127\.0\.0\.1/,
    );
    // Not a silent "not logged in": what differs, and that localhost is not 127.0.0.1 to the service.
    expect(r.stderr).toMatch(
      /error: the token stored in profile "p" is for base URL http:\/\/127\.0\.0\.1:\d+, not http:\/\/localhost/,
    );
    expect(r.stderr).toMatch(/localhost name the same machine but are different base URLs/);
    expect(r.stderr).not.toMatch(/not logged in/);
    const info = await runCli(['--profile', 'p', '--base-url', other, 'info'], { env: bareEnv(configDir) });
    expect(info.code).toBe(4);
    expect(info.stderr).toMatch(
      /error: the token stored in profile "p" is for base URL http:\/\/127\.0\.0\.1/,
    );

    // With a password the run works, and neither the profile nor its credentials change.
    const withPassword = await runCli(
      ['--profile', 'p', '--base-url', other, 'token', '--email', DEMO.email],
      {
        env: bareEnv(configDir, {
          TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
          TOKENCLI_PASSWORD: DEMO.password,
        }),
      },
    );
    expect(withPassword.code, withPassword.stderr).toBe(0);
    expect(readJson(join(configDir, 'config.json')).profiles.p.base_url).toBe(serve.baseUrl);
    expect(readJson(credentialsPath(configDir)).profiles.p.tokens.access_token).toBe(record().access_token);
  });
});

describe('every state has its own message and exit code', () => {
  test('no such profile: exit 2, the profiles there are and the nearest name', async () => {
    const configDir = tempDir('tokencli-profiles-');
    configured(configDir, 'work');
    const r = await runCli(['--profile', 'wrok', 'token'], { env: bareEnv(configDir) });
    expectError(
      r,
      2,
      /error: no profile "wrok" \(from --profile\)/,
      /hint: did you mean "work"\? \(profiles here: work\)/,
    );
    // Nothing recorded for a profile that does not exist.
    expect(readJson(join(configDir, 'config.json')).store_fallback_announced).toBeUndefined();
  });

  test('not configured: exit 2, how to configure', async () => {
    const r = await runCli(['token'], {
      env: bareEnv(tempDir('tokencli-profiles-'), { TOKENCLI_STORE: 'file' }),
    });
    expectError(
      r,
      2,
      /error: no base URL for profile "default" \(and no client id\): tokencli is not configured/,
      /--base-url/,
    );
  });

  test('not logged in: exit 4', async () => {
    const configDir = tempDir('tokencli-profiles-');
    configured(configDir);
    const r = await runCli(['--profile', 'p', 'token'], { env: bareEnv(configDir) });
    expectError(r, 4, /error: not logged in \(profile "p"\)/, /hint: run `tokencli --profile p login`/);
  });

  test('access token expired and no refresh token: exit 4, its own message', async () => {
    const configDir = tempDir('tokencli-profiles-');
    configured(configDir);
    writeStoredProfiles(configDir, { p: record({ expires_at: soon(-120), grant: 'saml2-bearer' }) });
    const r = await runCli(['--profile', 'p', 'token'], { env: bareEnv(configDir) });
    expectError(
      r,
      4,
      /error: the access token of profile "p" expired 2m( \d+s)? ago and there is no refresh token to renew it/,
    );
  });

  test('refresh token expired: exit 4, its own message', async () => {
    const configDir = tempDir('tokencli-profiles-');
    configured(configDir);
    writeStoredProfiles(configDir, {
      p: record({
        expires_at: soon(-60),
        refresh_token: 'r'.repeat(40),
        refresh_token_expires_at: soon(-3600),
      }),
    });
    const r = await runCli(['--profile', 'p', 'token'], { env: bareEnv(configDir) });
    expectError(
      r,
      4,
      /error: the refresh token of profile "p" expired 1h ago/,
      /hint: run `tokencli --profile p login` again/,
    );
  });

  test('less life left than --min-ttl and no way to renew: exit 4, naming the remaining life', async () => {
    const configDir = tempDir('tokencli-profiles-');
    configured(configDir);
    writeStoredProfiles(configDir, { p: record({ expires_at: soon(300), obtained_at: soon(-3300) }) });
    const r = await runCli(['--profile', 'p', 'token', '--min-ttl', '600'], { env: bareEnv(configDir) });
    expectError(
      r,
      4,
      /error: the access token of profile "p" has 4m \d+s left, less than --min-ttl 600s/,
      /lower --min-ttl/,
    );
    // Without --min-ttl above the remaining life it is simply used.
    const ok = await runCli(['--profile', 'p', 'token', '--min-ttl', '60'], { env: bareEnv(configDir) });
    expect(ok.stdout.trim()).toBe(record().access_token);
  });
});

describe('stale tokens', () => {
  test('info drops a cached access token the service refuses; the next token renews it', async () => {
    const configDir = tempDir('tokencli-profiles-');
    const env = demoEnv(serve.baseUrl, configDir);
    writeStoredProfiles(configDir, { default: record({ grant: 'client_credentials' }) });
    expect((await runCli(['token'], { env })).stdout.trim()).toBe(record().access_token);

    const info = await runCli(['info'], { env });
    expect(info.code).toBe(3);
    expect(info.stderr).toMatch(/hint: the service refused the cached access token .*it was dropped/);

    const renewed = await runCli(['token', '--json'], { env });
    expect(renewed.code, renewed.stderr).toBe(0);
    const json = JSON.parse(renewed.stdout);
    expect(json.access_token).not.toBe(record().access_token);
    expect(json.source).toBe('client_credentials');
  });

  test("a --min-ttl longer than the token's whole life warns, each time, instead of renewing on every call", async () => {
    const configDir = tempDir('tokencli-profiles-');
    const env = demoEnv(serve.baseUrl, configDir);
    const before = tokenRequests(serve.logs());
    const first = await runCli(['token', '--min-ttl', '7200'], { env });
    expect(first.code).toBe(0);
    // The service floors expires_in (3599 when it answered a millisecond after issuing).
    expect(first.stderr).toMatch(
      /warning: --min-ttl 7200s is longer than the token's whole life \((1h|59m 59s)\)/,
    );
    // From the cache too: the answer is still one the flag did not ask for.
    const second = await runCli(['token', '--min-ttl', '7200'], { env });
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/^warning: --min-ttl 7200s is longer than the token's whole life/);
    const plain = await runCli(['token'], { env });
    expect(plain).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    expect(tokenRequests(serve.logs()) - before).toBe(1);
  });

  test("a --min-ttl as long as the token's whole life (3600 s here) counts like a longer one", async () => {
    const configDir = tempDir('tokencli-profiles-');
    const env = demoEnv(serve.baseUrl, configDir);
    const before = tokenRequests(serve.logs());
    const first = await runCli(['token', '--min-ttl', '3600'], { env });
    expect(first.code).toBe(0);
    // The service floors expires_in: 3600 when it answered within the millisecond it issued the
    // token, else 3599 (as the platform's samples show); the warning names whichever it was.
    expect(first.stderr).toMatch(
      /warning: --min-ttl 3600s is (as long as the token's whole life \(1h\); the cached token is used while half its life \(30m\)|longer than the token's whole life \(59m 59s\); the cached token is used while half its life \(29m 59s\)) is left/,
    );
    const token = first.stdout.trim();
    // From the cache, the warning again: the launcher's light answer (src/cli/launcher/light-token.ts)
    // leaves such a run to the full CLI, which says it, for token and exec alike.
    const warned = /^warning: --min-ttl 3600s is (as long as|longer than) the token's whole life/;
    const second = await runCli(['token', '--min-ttl', '3600'], { env });
    expect(second).toMatchObject({ code: 0, stdout: `${token}\n` });
    expect(second.stderr).toMatch(warned);
    const exec = await runCli(
      [
        'exec',
        '--min-ttl',
        '3600',
        '--',
        process.execPath,
        '-e',
        'process.stdout.write(process.env.TOKENCLI_ACCESS_TOKEN)',
      ],
      { env },
    );
    expect(exec).toMatchObject({ code: 0, stdout: token });
    expect(exec.stderr).toMatch(warned);
    expect(tokenRequests(serve.logs()) - before).toBe(1);
    // Shorter than the whole life (3599 or 3600 s) is a plain minimum again: no warning.
    const shorter = await runCli(['token', '--force', '--min-ttl', '3598'], { env });
    expect(shorter).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('status --check', () => {
  test('valid, not logged in, refused, unreachable: each its exit code; --profile nosuch is an error', async () => {
    const configDir = tempDir('tokencli-profiles-');
    const env = demoEnv(serve.baseUrl, configDir);
    expect((await runCli(['--profile', 'good', 'token'], { env })).code).toBe(0);
    const base = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file' };

    const valid = await runCli(['--profile', 'good', 'status', '--check', '--json'], { env: base });
    expect(valid.code, valid.stderr).toBe(0);
    expect(JSON.parse(valid.stdout).profiles).toEqual([
      expect.objectContaining({ profile: 'good', check: 'valid' }),
    ]);

    const nobody = await runCli(
      [
        '--profile',
        'nobody',
        '--base-url',
        serve.baseUrl,
        '--client-id',
        DEMO.clientId,
        'configure',
        '--no-secret',
      ],
      { env: base },
    );
    expect(nobody.code).toBe(0);
    const notLoggedIn = await runCli(['--profile', 'nobody', 'status', '--check'], { env: base });
    expect(notLoggedIn.code).toBe(4);
    expect(notLoggedIn.stdout).toMatch(/check\s+not logged in/);

    // The whole list: one not logged in is enough to fail.
    expect((await runCli(['status', '--check'], { env: base })).code).toBe(4);

    const credentials = readJson(credentialsPath(configDir));
    credentials.profiles.revoked = { tokens: record() };
    credentials.profiles.away = { tokens: record({ base_url: 'http://127.0.0.1:9' }) };
    writeFileSync(credentialsPath(configDir), JSON.stringify(credentials), { mode: 0o600 });
    const refused = await runCli(['--profile', 'revoked', 'status', '--check'], { env: base });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toMatch(/check\s+refused/);
    const away = await runCli(['--profile', 'away', 'status', '--check'], { env: base });
    expect(away.code).toBe(5);
    expect(away.stdout).toMatch(/check\s+unreachable/);

    const plain = await runCli(['status'], { env: base });
    expect(plain.code).toBe(0);
    // No profile "default" here: it is named as the active one, and not made up in the list.
    expect(plain.stdout).toMatch(/^active profile: default \(not configured\)$/m);
    expect(plain.stdout).not.toMatch(/^default/m);

    const nosuch = await runCli(['--profile', 'nosuch', 'status'], { env: base });
    expectError(nosuch, 2, /error: no profile "nosuch"/, /profiles here: good, nobody/);
  });
});

describe('tokencli profile', () => {
  test('list, use (saved; TOKENCLI_PROFILE and --profile win), show, remove with --yes', async () => {
    const configDir = tempDir('tokencli-profiles-');
    const env = demoEnv(serve.baseUrl, configDir);
    const a = (await runCli(['--profile', 'a', 'token'], { env })).stdout;
    const b = (await runCli(['--profile', 'b', 'token'], { env })).stdout;
    const base = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file' };

    const used = await runCli(['profile', 'use', 'b'], { env: base });
    expect(used.code, used.stderr).toBe(0);
    expect(readJson(join(configDir, 'config.json')).active_profile).toBe('b');
    expect((await runCli(['token'], { env: base })).stdout).toBe(b);
    expect((await runCli(['token'], { env: { ...base, TOKENCLI_PROFILE: 'a' } })).stdout).toBe(a);
    expect((await runCli(['--profile', 'a', 'token'], { env: base })).stdout).toBe(a);

    const list = await runCli(['profile', 'list'], { env: base });
    expect(list.stdout).toMatch(/^ {2}a {2}http/m);
    expect(list.stdout).toMatch(/^\* b {2}http/m);
    const show = await runCli(['profile', 'show', '--json'], { env: base });
    expect(JSON.parse(show.stdout)).toMatchObject({
      profile: 'b',
      active: true,
      logged_in: true,
      store: 'file',
    });
    expectError(
      await runCli(['profile', 'use', 'c'], { env: base }),
      2,
      /error: no profile "c"/,
      /profiles here: a, b/,
    );

    expectError(await runCli(['profile', 'remove', 'b'], { env: base }), 2, /not confirmed/, /--yes/);
    const removed = await runCli(['profile', 'remove', 'b', '--yes'], { env: base });
    expect(removed.code, removed.stderr).toBe(0);
    // b was the active profile: commands without --profile now use `default`, and it says so.
    expect(removed.stderr).toMatch(
      /^It was the active profile: the active profile is now "default", which is not configured; choose another with `tokencli profile use NAME`\.$/m,
    );
    const config = readJson(join(configDir, 'config.json'));
    expect(config.profiles.b).toBeUndefined();
    expect(config.active_profile).toBeUndefined();
    expect(readJson(credentialsPath(configDir)).profiles.b).toBeUndefined();
    expect(readJson(credentialsPath(configDir)).profiles.a).toBeDefined();

    expectError(
      await runCli(['--profile', 'nosuch', 'logout'], { env: base }),
      2,
      /error: no profile "nosuch"/,
    );
  });
});

describe('tokencli profile list', () => {
  test('its columns line up whatever the lengths of the URLs and client ids', async () => {
    const configDir = tempDir('tokencli-profiles-');
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({
        active_profile: 'b',
        profiles: {
          b: { store: 'keychain' },
          default: { base_url: 'http://localhost:8080', client_id: 'demo-client', store: 'file' },
          'longer-name': { base_url: 'https://api.example.com/prefix', client_id: 'x' },
        },
      }),
      { mode: 0o600 },
    );
    const r = await runCli(['profile', 'list'], { env: bareEnv(configDir) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        '* b            -                               -            keychain',
        '  default      http://localhost:8080           demo-client  file',
        '  longer-name  https://api.example.com/prefix  x            -',
        '',
      ].join('\n'),
    );
  });
});

describe.skipIf(!hasScript)(
  `tokencli profile remove on a terminal${hasScript ? '' : ` (skipped: ${scriptMissing})`}`,
  () => {
    test('answered no: says the profile was left alone, exit 0, nothing removed', async () => {
      const configDir = tempDir('tokencli-profiles-');
      configured(configDir, 'keep');
      const before = readFileSync(join(configDir, 'config.json'), 'utf8');
      const r = await onTerminal(['profile', 'remove', 'keep'], bareEnv(configDir), {
        answer: { prompt: /\[y\/N\] $/, keys: 'n\r' },
      });
      expect(r.code, r.output).toBe(0);
      expect(r.output).toMatch(/^Left profile "keep" as it was; nothing was removed\.\r?$/m);
      expect(r.output).not.toMatch(/error:/);
      expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
    });

    test('Ctrl-D at the question is no (exit 0); Ctrl-C interrupts (exit 130); neither removes anything', async () => {
      const configDir = tempDir('tokencli-profiles-');
      configured(configDir, 'keep');
      const before = readFileSync(join(configDir, 'config.json'), 'utf8');
      const ended = await onTerminal(['profile', 'remove', 'keep'], bareEnv(configDir), {
        answer: { prompt: /\[y\/N\] $/, keys: '\u0004' },
      });
      expect(ended.code, ended.output).toBe(0);
      expect(ended.output).toMatch(/^Left profile "keep" as it was; nothing was removed\.\r?$/m);
      const interrupted = await onTerminal(['profile', 'remove', 'keep'], bareEnv(configDir), {
        answer: { prompt: /\[y\/N\] $/, keys: '\u0003' },
      });
      expect(interrupted.code, interrupted.output).toBe(130);
      expect(interrupted.output).not.toMatch(/internal error/);
      expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
    });

    test('answered yes: removes it; a profile that was not the active one says nothing about it', async () => {
      const configDir = tempDir('tokencli-profiles-');
      configured(configDir, 'gone');
      const r = await onTerminal(['profile', 'remove', 'gone'], bareEnv(configDir), {
        answer: { prompt: /\[y\/N\] $/, keys: 'y\r' },
      });
      expect(r.code, r.output).toBe(0);
      expect(r.output).toMatch(/^Removed profile "gone"\.\r?$/m);
      expect(r.output).not.toMatch(/active profile/);
      expect(readJson(join(configDir, 'config.json')).profiles.gone).toBeUndefined();
    });
  },
);

describe('secrets in JSON', () => {
  test("refresh tokens (and info's access token) are masked unless --show-tokens", async () => {
    const configDir = tempDir('tokencli-profiles-');
    const env = demoEnv(serve.baseUrl, configDir);
    const refresh = `refresh-${'x'.repeat(40)}`;
    writeStoredProfiles(configDir, {
      default: record({ refresh_token: refresh, refresh_token_expires_at: soon(86_400) }),
    });
    const masked = await runCli(['token', '--json'], { env });
    expect(masked.stdout).not.toContain(refresh);
    expect(JSON.parse(masked.stdout)).toMatchObject({
      access_token: record().access_token,
      refresh_token: 'refr…xxxx',
    });
    const shown = await runCli(['token', '--json', '--show-tokens'], { env });
    expect(JSON.parse(shown.stdout).refresh_token).toBe(refresh);

    const real = (await runCli(['token', '--store', 'none'], { env })).stdout.trim();
    const info = await runCli(['info', '--token-stdin', '--json'], { env, input: real });
    expect(info.code).toBe(0);
    expect(info.stdout).not.toContain(real);
    expect(JSON.parse(info.stdout).access_token).toBe(`${real.slice(0, 4)}…${real.slice(-4)}`);
  });
});

describe('the store is remembered', () => {
  test.runIf(keychainCanBeAway)(
    `the keychain fallback is announced once per profile, with the setting that silences it${skippedWithKeychain}`,
    async () => {
      const configDir = tempDir('tokencli-profiles-');
      const env = {
        ...demoEnv(serve.baseUrl, configDir),
        TOKENCLI_STORE: undefined,
        DBUS_SESSION_BUS_ADDRESS: undefined,
      };
      const first = await runCli(['token'], { env });
      expect(first.code).toBe(0);
      expect(first.stderr).toMatch(
        /^warning: OS keychain unavailable .*keeping the credentials of profile "default" in /m,
      );
      expect(first.stderr).toMatch(/TOKENCLI_STORE=file/);
      const config = readJson(join(configDir, 'config.json'));
      expect(config.store_fallback_announced).toEqual(['default']);
      expect(config.profiles.default.store).toBe('file');
      const second = await runCli(['status'], { env });
      expect(second.stderr).toBe('');
    },
  );
});
