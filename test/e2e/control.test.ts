/**
 * The control API of `tokencli serve --control` driving the built CLI: advanced time,
 * revocation and injected faults seen through `tokencli token` / `info`, and the start-up guards.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  BINARY,
  CLI,
  cleanEnv,
  runCli,
  type ServeHandle,
  serviceTemp,
  startServe,
  tempDir,
  tryItLines,
} from '../helpers/cli.js';
import { demoLoginEnv, loginWithoutBrowser, startLogin } from '../helpers/cli-login.js';
import { readStoredCredentials } from '../helpers/stored-credentials.js';
import { DEMO, demoEnv, tokenRequests } from './env.js';

let serve: ServeHandle;
beforeAll(async () => {
  serve = await startServe(['--control']);
});
const dirs: string[] = [];
afterAll(async () => {
  await serve?.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A config dir removed after the tests. */
function scratch(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}

/** The demo client's environment with a config dir of its own. */
function env(): Record<string, string> {
  return demoEnv(serve.baseUrl, scratch());
}
beforeEach(async () => {
  await control('POST', 'reset');
});

/** How many tokeninfo requests the service logged. */
function tokeninfoRequests(): number {
  return serve
    .logs()
    .split('\n')
    .filter((line) => /GET \/v2\/oauth\/tokeninfo\b/.test(line)).length;
}

/** The stored record of the default profile. */
function storedRecord(env: Record<string, string>): Record<string, unknown> {
  return readStoredCredentials(String(env.TOKENCLI_CONFIG_DIR)).profiles.default?.tokens ?? {};
}

async function control(method: string, name: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${serve.baseUrl}/_control/${name}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`control ${name}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

describe('time travel', () => {
  test('advance 3600 s: info exits 3, token gets a new one, info is happy again', async () => {
    const env = demoEnv(serve.baseUrl, scratch());
    const first = await runCli(['token'], { env });
    expect(first.code).toBe(0);
    expect((await runCli(['info'], { env })).code).toBe(0);

    await control('POST', 'clock', { advance_seconds: 3600 });
    const expired = await runCli(['info'], { env });
    expect(expired.code).toBe(3);
    expect(expired.stderr).toMatch(/^error: .*401/m);
    expect(expired.stderr).toContain('invalid_token');

    // The client's own clock did not move, but info saw the service refuse the cached token and
    // dropped it: a plain `token` renews, as a script would call it.
    expect(expired.stderr).toMatch(/^hint: .*tokencli token/m);
    const renewed = await runCli(['token'], { env });
    expect(renewed.code).toBe(0);
    expect(renewed.stdout).not.toBe(first.stdout);
    expect((await runCli(['info'], { env })).code).toBe(0);
  });
});

describe('refresh', () => {
  /** `tokencli login` played without a browser: a stored access and refresh token. */
  async function loggedIn(): Promise<Record<string, string>> {
    const env = demoLoginEnv(serve.baseUrl, scratch());
    const login = startLogin(['--no-browser', '--redirect-uri', 'http://127.0.0.1:0/callback'], env);
    await loginWithoutBrowser(await login.authorizeUrl, DEMO.email, DEMO.password);
    expect((await login.done).code).toBe(0);
    return env;
  }

  test('an hour later refresh gets a working token; 30 days later the service refuses it', async () => {
    const env = await loggedIn();
    await control('POST', 'clock', { advance_seconds: 3600 });
    expect((await runCli(['info'], { env })).code).toBe(3);
    const refreshed = await runCli(['refresh'], { env });
    expect(refreshed.code).toBe(0);
    expect((await runCli(['info'], { env })).code).toBe(0);

    await control('POST', 'clock', { advance_seconds: 2_592_000 });
    const stale = await runCli(['refresh'], { env });
    expect(stale.code).toBe(3);
    expect(stale.stderr).toMatch(/^error: .*invalid_grant/m);
  });

  test('a 018 fault on the refresh grant only: refresh exits 3 with the hint, token from the cache still works', async () => {
    const env = await loggedIn();
    await control('POST', 'faults', { endpoint: 'token', grant_type: 'refresh_token', subcode: '018' });
    const r = await runCli(['refresh'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^hint: .*--end-other-sessions/m);
    expect((await runCli(['token'], { env })).code).toBe(0);
  });

  test('an access token the service refused is dropped once: not sent again, reported refused, renewed by the refresh token', async () => {
    const env = await loggedIn();
    const cached = (await runCli(['token'], { env })).stdout;
    // An hour on at the service only: the client still counts the token as fresh.
    await control('POST', 'clock', { advance_seconds: 3600 });
    const first = await runCli(['info'], { env });
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/^error: .*401/m);

    const asked = tokeninfoRequests();
    const again = await runCli(['info'], { env });
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(
      /^error: the access token of profile "default" was refused by the service \(revoked or cut short\) at \S+ and dropped; it is not sent again$/m,
    );
    expect(again.stderr).toMatch(/^hint: .*`tokencli token` now gets a new one with the refresh token/m);
    const check = await runCli(['status', '--check'], { env });
    expect(check.code).toBe(3);
    expect(check.stdout).toMatch(/check\s+refused \(refused earlier, at \S+; not sent again\)/);
    expect(tokeninfoRequests()).toBe(asked);

    const status = await runCli(['status'], { env });
    expect(status.stdout).toMatch(
      /access token\s+refused by the service \d+s ago \(at \d\d:\d\d\): revoked or cut short, not used again/,
    );
    expect(status.stdout).not.toMatch(/access token\s+expired/);
    expect(storedRecord(env)).toMatchObject({ refresh_token: expect.any(String), email: DEMO.email });

    const renewed = await runCli(['token', '--json'], { env });
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(JSON.parse(renewed.stdout)).toMatchObject({ source: 'refresh_token' });
    expect(JSON.parse(renewed.stdout).access_token).not.toBe(cached.trim());
    expect(storedRecord(env).access_token_refused_at).toBeUndefined();
    expect((await runCli(['info'], { env })).code).toBe(0);
  });
});

describe('revocation', () => {
  test('revoking the user: info exits 3; the next token logs in again', async () => {
    const env = demoEnv(serve.baseUrl, scratch());
    expect((await runCli(['token'], { env })).code).toBe(0);
    expect(await control('POST', 'revoke', { email: DEMO.email })).toEqual({
      revoked: { access_tokens: 1, refresh_tokens: 0 },
    });
    expect((await runCli(['info'], { env })).code).toBe(3);
    expect((await runCli(['token'], { env })).code).toBe(0);
    expect((await runCli(['info'], { env })).code).toBe(0);
  });

  test('a revoked token without a refresh token: token says it was refused, not that it expired', async () => {
    const env = demoEnv(serve.baseUrl, scratch());
    expect((await runCli(['token'], { env })).code).toBe(0);
    await control('POST', 'revoke', { email: DEMO.email });
    expect((await runCli(['info'], { env })).code).toBe(3);
    expect(storedRecord(env)).toMatchObject({
      email: DEMO.email,
      access_token_refused_at: expect.stringMatching(/^\d{4}-/),
    });

    const asked = tokeninfoRequests();
    const again = await runCli(['info'], { env });
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/not sent again/);
    expect(again.stderr).toMatch(/^hint: .*run `tokencli login` \(or `tokencli token` with the password\)/m);
    expect(tokeninfoRequests()).toBe(asked);

    const nothing = { ...env, TOKENCLI_EMAIL: undefined, TOKENCLI_PASSWORD: undefined };
    const token = await runCli(['token'], { env: nothing });
    expect(token.code).toBe(4);
    expect(token.stdout).toBe('');
    expect(token.stderr).toMatch(
      /^error: the access token of profile "default" was refused by the service \(revoked or cut short\) at \S+, and there is no refresh token to renew it$/m,
    );
    expect(token.stderr).toMatch(/^hint: run `tokencli token` again with the password/m);
    expect(token.stderr).not.toMatch(/expired/);
    const profile = await runCli(['profile', 'show'], { env: nothing });
    expect(profile.stdout).toMatch(/access token\s+refused by the service/);
  });
});

describe('a password alone after a revoked token was dropped', () => {
  test("the stored token's email is used with TOKENCLI_PASSWORD or --password-stdin", async () => {
    const env = demoEnv(serve.baseUrl, scratch());
    const first = await runCli(['token'], { env });
    expect(first.code).toBe(0);
    // From here on the user is not named: only the stored token knows who it was issued to.
    const passwordOnly = { ...env, TOKENCLI_EMAIL: undefined };
    const viaStdin = { ...passwordOnly, TOKENCLI_PASSWORD: undefined };
    const renewals = [
      () => runCli(['token'], { env: passwordOnly }),
      () => runCli(['token', '--password-stdin'], { env: viaStdin, input: `${DEMO.password}\n` }),
    ];
    const seen = [first.stdout];
    for (const renew of renewals) {
      await control('POST', 'revoke', { email: DEMO.email });
      expect((await runCli(['info'], { env: passwordOnly })).code).toBe(3);
      const renewed = await renew();
      expect(renewed.stderr).toBe('');
      expect(renewed.code).toBe(0);
      expect(seen).not.toContain(renewed.stdout);
      seen.push(renewed.stdout);
      const info = await runCli(['info', '--json'], { env: passwordOnly });
      expect(info.code, info.stderr).toBe(0);
      expect(JSON.parse(info.stdout).email).toBe(DEMO.email);
    }
  });
});

describe('faults', () => {
  test('503 with Retry-After 1: token waits, retries once and succeeds', async () => {
    await control('POST', 'faults', { endpoint: 'token', status: 503, retry_after: 1 });
    const before = tokenRequests(serve.logs());
    const started = Date.now();
    const r = await runCli(['token'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\S{20,}\n$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await expect.poll(() => tokenRequests(serve.logs()) - before).toBe(2);
  });

  test('the 018 answer: exit 3 and the hint names --end-other-sessions', async () => {
    await control('POST', 'faults', { endpoint: 'token', subcode: '018' });
    const r = await runCli(['token'], { env: env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: .*018/m);
    expect(r.stderr).toMatch(/^hint: .*--end-other-sessions/m);
  });

  test("a gateway's HTML 502 on tokeninfo: info exits 5 naming the status", async () => {
    const env = demoEnv(serve.baseUrl, scratch());
    expect((await runCli(['token'], { env })).code).toBe(0);
    await control('POST', 'faults', { endpoint: 'tokeninfo', body: 'html' });
    const r = await runCli(['info'], { env });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: .*502/m);
    expect(r.stderr).not.toContain('<');
  });

  test('a delay beyond --timeout: exit 5 saying it timed out, and the service still answers', async () => {
    await control('POST', 'faults', { endpoint: 'token', delay_ms: 3000 });
    const r = await runCli(['--timeout', '1', 'token'], { env: env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/timed out/);
    expect((await runCli(['token'], { env: env() })).code).toBe(0);
  });

  test('state shows the pending fault with its count, DELETE clears it', async () => {
    await control('POST', 'faults', { endpoint: 'token', status: 500, count: 3 });
    const state = await control('GET', 'state');
    expect(state.faults).toEqual([{ endpoint: 'token', status: 500, count: 3, remaining: 3 }]);
    await control('DELETE', 'faults');
    expect((await runCli(['token'], { env: env() })).code).toBe(0);
  });
});

describe('start-up guards', () => {
  test('--control on a non-loopback bind without a control token: exit 2, nothing served', async () => {
    const r = await runCli(['serve', '--port', '0', '--host', '0.0.0.0', '--control']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: the control API is refused on 0\.0\.0\.0/m);
    expect(r.stderr).toMatch(/^hint: .*--control-token-stdin or TOKENCLI_CONTROL_TOKEN/m);
  });

  test('--control-token VALUE is refused, naming the ways that keep it out of ps', async () => {
    const r = await runCli(['serve', '--port', '0', '--control', '--control-token', 'x'.repeat(20)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --control-token takes no value on the command line/m);
    expect(r.stderr).toMatch(/^hint: .*--control-token-stdin.*TOKENCLI_CONTROL_TOKEN/m);
    expect(r.stderr).not.toContain('x'.repeat(20));
  });

  test('a short control token and --control-token-stdin without --control: exit 2', async () => {
    const short = await runCli(['serve', '--port', '0', '--control', '--control-token-stdin'], {
      input: 'abc\n',
    });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/^error: the control token must be at least 16/m);
    const alone = await runCli(['serve', '--port', '0', '--control-token-stdin'], { input: 'x'.repeat(20) });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/^error: --control-token-stdin needs --control/m);
  });

  test('on 0.0.0.0 with a token from the environment: loopback base URL, the token required', async () => {
    const token = 'e2e-control-token-0123456789';
    const open = await startServe(['--host', '0.0.0.0', '--control'], { TOKENCLI_CONTROL_TOKEN: token });
    try {
      expect(open.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await expect
        .poll(() => open.logs())
        .toContain('listening on every interface (0.0.0.0): 127.0.0.1 (lo)');
      expect(open.logs()).toMatch(/^warning: the demo credentials .* are public/m);
      expect(open.logs()).not.toContain(token);
      expect((await fetch(`${open.baseUrl}/_control/state`)).status).toBe(401);
      const ok = await fetch(`${open.baseUrl}/_control/state`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(ok.status).toBe(200);
    } finally {
      await open.stop();
    }
  });

  test('the control token from stdin', async () => {
    const token = 'stdin-control-token-0123456789';
    const child = spawn(
      CLI[0],
      [...CLI.slice(1), 'serve', '--port', '0', '--control', '--control-token-stdin'],
      {
        env: cleanEnv(serviceTemp()),
        stdio: ['pipe', 'pipe', 'ignore'],
      },
    );
    try {
      child.stdin.end(`${token}\n`);
      const lines = createInterface({ input: child.stdout });
      const [line] = (await new Promise((resolve) => lines.once('line', (l) => resolve([l])))) as [string];
      const baseUrl = (JSON.parse(line) as { base_url: string }).base_url;
      expect((await fetch(`${baseUrl}/_control/clock`)).status).toBe(401);
      const ok = await fetch(`${baseUrl}/_control/clock`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('start-up text', () => {
  test.skipIf(process.platform === 'win32')(
    'the paste-ready lines run as printed, with the binary as it was invoked (skipped on Windows: they are sh lines, run in /bin/sh)',
    async () => {
      const demo = await startServe();
      try {
        await expect.poll(() => demo.logs()).toContain('try it');
        const lines = tryItLines(demo.logs());
        // The SSO line continues the list once the demo identity provider's key is written.
        await expect.poll(() => demo.logs(), { timeout: 15_000 }).toMatch(/\n {2}SSO: .*\n/);
        lines.push((/\n {2}SSO: (.*)\n/.exec(demo.logs()) ?? [])[1] ?? '');
        expect(lines[3]).toMatch(/ sso --profile demo /);
        // node and the script, or the single executable as it was run.
        const cli = BINARY ? BINARY.replaceAll('.', '\\.') : 'node \\S+tokencli\\.js';
        expect(lines[0]).toMatch(new RegExp(`^printf %s demo-secret \\| ${cli} configure --profile demo `));
        expect(lines.join('\n')).not.toMatch(/(^|\| )tokencli /m);
        const configDir = scratch();
        const shellEnv = cleanEnv({ TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file' });
        const outputs: string[] = [];
        for (const line of lines) {
          const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
            const sh = spawn('/bin/sh', ['-c', line], { env: shellEnv, stdio: ['ignore', 'pipe', 'pipe'] });
            let out = '';
            sh.stdout.on('data', (d: Buffer) => {
              out += d.toString();
            });
            sh.on('close', (code) => resolve({ code, out }));
          });
          expect(result.code, line).toBe(0);
          outputs.push(result.out);
        }
        expect(outputs[2]).toMatch(/email +demo@example\.com/);
      } finally {
        await demo.stop();
      }
    },
  );

  test('with --control, the control API line comes first and the SSO line stays with the try-it lines', async () => {
    // A service of its own: no request log line comes between the start-up lines.
    const fresh = await startServe(['--control']);
    try {
      await expect.poll(() => fresh.logs(), { timeout: 15_000 }).toMatch(/\n {2}SSO: /);
      const lines = fresh.logs().split('\n');
      const control = lines.findIndex((line) => line.startsWith('control API: '));
      const sso = lines.findIndex((line) => line.startsWith('  SSO: '));
      expect(control).toBeGreaterThanOrEqual(0);
      expect(control).toBeLessThan(lines.indexOf('try it (another terminal):'));
      // The SSO command follows the info line it belongs with, not the control API's.
      expect(lines[sso - 1]).toMatch(/ info --profile demo$/);
    } finally {
      await fresh.stop();
    }
  });

  test('a closed stderr pipe ends the service without leaving the demo signing key', async () => {
    const child = spawn(CLI[0], [...CLI.slice(1), 'serve', '--port', '0'], {
      // Should the service not end on Windows, the SIGKILL below would leave its key in a
      // directory removed after the file, not in the run's.
      env: cleanEnv(serviceTemp()),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const baseUrl = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line).base_url)),
      );
      let logs = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        logs += chunk;
      });
      await expect.poll(() => logs, { timeout: 15_000 }).toMatch(/--sign-key (\S+)/);
      const keyPath = (/--sign-key (\S+)/.exec(logs) ?? [])[1] as string;
      expect(existsSync(keyPath)).toBe(true);
      // The reader goes away (`tokencli serve 2>&1 | head`); the next log line meets EPIPE.
      child.stderr.destroy();
      await fetch(`${baseUrl}/v2/oauth/tokeninfo`).catch(() => undefined);
      expect(await exited).toBe(0);
      expect(existsSync(dirname(keyPath))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test.skipIf(process.platform === 'win32')(
    'SIGHUP stops the service and removes the demo signing key (skipped on Windows: no SIGHUP to send; closing the console sends it there)',
    async () => {
      const demo = await startServe();
      await expect.poll(() => demo.logs(), { timeout: 15_000 }).toMatch(/--sign-key (\S+)/);
      const keyPath = (/--sign-key (\S+)/.exec(demo.logs()) ?? [])[1] as string;
      expect(existsSync(keyPath)).toBe(true);
      demo.process.removeAllListeners('exit');
      const exited = new Promise<number | null>((resolve) => demo.process.once('exit', resolve));
      demo.process.kill('SIGHUP');
      expect(await exited).toBe(0);
      expect(existsSync(dirname(keyPath))).toBe(false);
    },
  );
});
