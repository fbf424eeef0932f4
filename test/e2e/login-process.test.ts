/**
 * `tokencli login` as a process, without a browser: the login form of `tokencli serve` is posted
 * with fetch and the redirect followed by hand, so each outcome of SPEC.md §2.5 is checked on the
 * exit code, stderr and the store. (The real-browser run is login-browser.test.ts.)
 */

import { spawn } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, cleanEnv, runCli, type ServeHandle, startServe, tempDir } from '../helpers/cli.js';
import { hitRedirect, loginWithoutBrowser, redirectUriOf, startLogin } from '../login/cli-login.js';
import { DEMO } from './env.js';

let serve: ServeHandle;
beforeAll(async () => {
  serve = await startServe();
});
afterAll(async () => {
  await serve?.stop();
});

/** The browser-login environment: no email or password, so nothing but the login can yield a token. */
function loginEnv(configDir = tempDir()): Record<string, string> {
  return {
    TOKENCLI_BASE_URL: serve.baseUrl,
    TOKENCLI_CLIENT_ID: DEMO.clientId,
    TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
    TOKENCLI_STORE: 'file',
    TOKENCLI_CONFIG_DIR: configDir,
  };
}

const ANY_PORT = ['--no-browser', '--redirect-uri', 'http://127.0.0.1:0/callback'];

/** Nothing stored: `tokencli token` (no email or password around) finds nothing and exits 4. */
async function expectNothingStored(configDir: string): Promise<void> {
  const r = await runCli(['token'], { env: loginEnv(configDir) });
  expect(r.code).toBe(4);
}

/** A GET with any Host header (fetch will not send a foreign one). */
function getWithHost(url: URL, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers: { host },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('tokencli login (no browser)', () => {
  test('completes: exit 0, tokens stored, summary on stderr, --json record on stdout', async () => {
    const configDir = tempDir();
    const login = startLogin([...ANY_PORT, '--json'], loginEnv(configDir));
    const url = await login.authorizeUrl;
    expect(`${url.origin}${url.pathname}`).toBe(`${serve.baseUrl}/v2/oauth/authorize`);
    const redirect = redirectUriOf(url);
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(Number(redirect.port)).toBeGreaterThan(0);

    const page = await loginWithoutBrowser(url, DEMO.email, DEMO.password);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You are logged in as demo@example.com.');
    const r = await login.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^Logged in as demo@example\.com \(profile default\)\. Access token expires in (59m|1h); refresh token in (29d|30d)\.$/m,
    );
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      token_type: 'BearerToken',
      email: DEMO.email,
      profile: 'default',
      source: 'authorization_code',
    });
    // The service reports the application's registered redirect URI (any loopback port matches it).
    expect(json.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(typeof json.access_token).toBe('string');
    expect(typeof json.refresh_token).toBe('string');
    // No secret reached stderr.
    expect(r.stderr).not.toContain(json.access_token as string);
    expect(r.stderr).not.toContain(DEMO.clientSecret);
    // The stored token is what `tokencli token` prints.
    const token = await runCli(['token'], { env: loginEnv(configDir) });
    expect(token.stdout.trim()).toBe(json.access_token);
  });

  test('a foreign Host is refused with 403 and the login keeps waiting', async () => {
    const login = startLogin(ANY_PORT, loginEnv());
    const url = await login.authorizeUrl;
    const redirect = redirectUriOf(url);
    redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
    redirect.searchParams.set('code', 'forged');
    expect(await getWithHost(redirect, 'attacker.example')).toBe(403);
    expect(await getWithHost(redirect, `attacker.example:${redirect.port}`)).toBe(403);
    expect((await loginWithoutBrowser(url, DEMO.email, DEMO.password)).status).toBe(200);
    expect((await login.done).code).toBe(0);
  });

  test('a wrong state gets an error page, a warning, and the login keeps waiting', async () => {
    const login = startLogin(ANY_PORT, loginEnv());
    const url = await login.authorizeUrl;
    const stray = await hitRedirect(url, { code: 'stale', state: 'from-another-login' });
    expect(stray.status).toBe(400);
    expect(await stray.text()).toContain('Not this login');
    expect((await loginWithoutBrowser(url, DEMO.email, DEMO.password)).status).toBe(200);
    const r = await login.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'warning: ignored a redirect without the state of this login (an old tab, or a forged request); still waiting',
    );
  });

  test('error=access_denied with the right state: exit 6, the description shown, nothing stored', async () => {
    const configDir = tempDir();
    const login = startLogin(ANY_PORT, loginEnv(configDir));
    const url = await login.authorizeUrl;
    const page = await hitRedirect(url, {
      state: url.searchParams.get('state') ?? '',
      error: 'access_denied',
      error_description: 'The user said no\u001b[2J',
    });
    expect(page.status).toBe(400);
    const r = await login.done;
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(
      'error: the login was not completed: access was denied (access_denied: The user said no [2J)',
    );
    expect(r.stderr).toContain('hint: run `tokencli login` again and allow access in the browser');
    expect(r.stderr).not.toContain('\u001b');
    await expectNothingStored(configDir);
  });

  test('any other error with the right state: exit 3', async () => {
    const login = startLogin(ANY_PORT, loginEnv());
    const url = await login.authorizeUrl;
    await hitRedirect(url, { state: url.searchParams.get('state') ?? '', error: 'unauthorized_client' });
    const r = await login.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error: the service refused the authorization request (unauthorized_client)');
  });

  test('a refused exchange (wrong client secret): exit 3, the tab is told, nothing stored', async () => {
    const configDir = tempDir();
    const login = startLogin(ANY_PORT, { ...loginEnv(configDir), TOKENCLI_CLIENT_SECRET: 'wrong-secret' });
    const page = await loginWithoutBrowser(await login.authorizeUrl, DEMO.email, DEMO.password);
    expect(page.status).toBe(500);
    expect(await page.text()).toContain('exchanging the code for tokens failed');
    const r = await login.done;
    expect(r.code).toBe(3);
    expect(r.stderr).not.toContain('wrong-secret');
    await expectNothingStored(configDir);
  });

  test('--timeout-login: exit 6 after the wait, with a hint', async () => {
    const r = await startLogin([...ANY_PORT, '--timeout-login', '1'], loginEnv()).done;
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('error: timed out after 1 s waiting for the login to finish in the browser');
    expect(r.stderr).toContain('--timeout-login');
  });

  test.each([['0'], ['-5'], ['soon'], ['']])('--timeout-login %j is a usage error', async (value) => {
    const r = await runCli(['login', ...ANY_PORT, '--timeout-login', value], { env: loginEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: --timeout-login: "${value}" is not a number of seconds`);
  });

  test('Ctrl-C while waiting: exit 130, the listener gone, nothing stored', async () => {
    const configDir = tempDir();
    const login = startLogin(ANY_PORT, loginEnv(configDir));
    const url = await login.authorizeUrl;
    login.child.kill('SIGINT');
    const r = await login.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('error: interrupted');
    await expectNothingStored(configDir);
    const refused = await fetch(redirectUriOf(url)).catch(
      (e: { cause?: { code?: string } }) => e.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');
  });

  test('a taken port: exit 2 naming --redirect-uri', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as { port: number };
    try {
      const r = await runCli(
        ['login', '--no-browser', '--redirect-uri', `http://127.0.0.1:${port}/callback`],
        {
          env: loginEnv(),
        },
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `error: cannot listen on 127.0.0.1:${port} for --redirect-uri: the port is already in use`,
      );
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  test('a redirect URI that is not loopback http: exit 2 naming --redirect-uri', async () => {
    const r = await runCli(['login', '--no-browser', '--redirect-uri', 'http://0.0.0.0:0/callback'], {
      env: loginEnv(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: invalid --redirect-uri "http://0.0.0.0:0/callback": host "0.0.0.0" is not a loopback address',
    );
  });

  test('without a client secret and no terminal: exit 2 before any browser step', async () => {
    const r = await runCli(['login', ...ANY_PORT], {
      env: { ...loginEnv(), TOKENCLI_CLIENT_SECRET: undefined },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('/v2/oauth/authorize');
  });
});

/**
 * The paste fallback needs stdin to be a terminal. util-linux `script` runs the CLI on a
 * pseudo-terminal and forwards what the test writes to it, so the pasted line arrives the way a
 * person's paste would. Where `script` is missing the test is skipped (the paste logic itself is
 * covered in test/login/paste-prompt.test.ts).
 */
const hasScript = ['/usr/bin/script', '/bin/script'].some((p) => existsSync(p));

describe.skipIf(!hasScript)('tokencli login on a terminal (pty via util-linux script)', () => {
  function loginOnPty(env: Record<string, string>) {
    const command = [process.execPath, BIN, 'login', ...ANY_PORT].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      env: cleanEnv({ ...env, TERM: 'dumb' }),
      stdio: 'pipe',
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      output += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const done = new Promise<number | null>((resolveDone) =>
      child.on('close', (code) => {
        clearTimeout(timer);
        resolveDone(code);
      }),
    );
    const authorizeUrl = (async () => {
      for (let i = 0; i < 600; i++) {
        const match = /(https?:\/\/\S+\/v2\/oauth\/authorize\?\S+)/.exec(output);
        if (match?.[1]) return new URL(match[1]);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no URL printed; output:\n${output}`);
    })();
    return { child, done, authorizeUrl, output: () => output };
  }

  /** The login form posted, the 302 not followed: its Location is what the user would paste. */
  async function redirectLocation(url: URL): Promise<string> {
    const form = new URLSearchParams(url.searchParams);
    form.set('email', DEMO.email);
    form.set('password', DEMO.password);
    const posted = await fetch(`${url.origin}${url.pathname}`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
    });
    expect(posted.status).toBe(302);
    return posted.headers.get('location') ?? '';
  }

  test('a pasted redirect URL completes the login (the listener never sees it)', async () => {
    const configDir = tempDir();
    const login = loginOnPty(loginEnv(configDir));
    const url = await login.authorizeUrl;
    expect(login.output()).toContain('paste the URL it ends up on (or the code) here:');
    login.child.stdin.write(`${await redirectLocation(url)}\r`);
    expect(await login.done).toBe(0);
    expect(login.output()).toContain('Logged in as demo@example.com (profile default).');
    expect((await runCli(['token'], { env: loginEnv(configDir) })).code).toBe(0);
  });

  test('a pasted URL of another login is refused and the login keeps waiting for the right one', async () => {
    const login = loginOnPty(loginEnv());
    const url = await login.authorizeUrl;
    const location = await redirectLocation(url);
    const forged = new URL(location);
    forged.searchParams.set('state', 'not-this-login');
    login.child.stdin.write(`${forged.href}\r`);
    login.child.stdin.write(`${location}\r`);
    expect(await login.done).toBe(0);
    expect(login.output()).toContain('that URL does not carry the state of this login');
  });

  test('a pasted bare code completes the login', async () => {
    const login = loginOnPty(loginEnv());
    const url = await login.authorizeUrl;
    const code = new URL(await redirectLocation(url)).searchParams.get('code') ?? '';
    login.child.stdin.write(`${code}\r`);
    expect(await login.done).toBe(0);
  });

  test('Ctrl-C on the terminal: exit 130', async () => {
    const configDir = tempDir();
    const login = loginOnPty(loginEnv(configDir));
    await login.authorizeUrl;
    login.child.stdin.write('\u0003');
    expect(await login.done).toBe(130);
    await expectNothingStored(configDir);
  });
});

describe('tokencli login --end-other-sessions (a single-session user, SPEC.md §1 rule 10)', () => {
  let single: ServeHandle;
  const user = { email: 'single@example.com', password: 'single-password' };
  beforeAll(async () => {
    const dir = tempDir();
    const config = join(dir, 'service.json');
    writeFileSync(
      config,
      JSON.stringify({
        apps: [
          {
            client_id: DEMO.clientId,
            client_secret: DEMO.clientSecret,
            app_name: 'Single App',
            redirect_uris: ['http://127.0.0.1:8765/callback'],
            grants: ['authorization_code', 'refresh_token'],
            refresh_tokens: true,
          },
        ],
        users: [{ ...user, single_session: true }],
      }),
    );
    single = await startServe(['--config', config]);
  });
  afterAll(async () => {
    await single?.stop();
  });

  test('a second login is refused with a hint; with the flag it ends the other session', async () => {
    const env = { ...loginEnv(), TOKENCLI_BASE_URL: single.baseUrl };
    const first = startLogin(ANY_PORT, env);
    await loginWithoutBrowser(await first.authorizeUrl, user.email, user.password);
    expect((await first.done).code).toBe(0);

    const second = startLogin(ANY_PORT, env);
    const secondUrl = await second.authorizeUrl;
    expect(secondUrl.searchParams.has('endOtherSessions')).toBe(false);
    await loginWithoutBrowser(secondUrl, user.email, user.password);
    const refused = await second.done;
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--end-other-sessions');

    const third = startLogin([...ANY_PORT, '--end-other-sessions'], env);
    const thirdUrl = await third.authorizeUrl;
    expect(thirdUrl.searchParams.get('endOtherSessions')).toBe('True');
    await loginWithoutBrowser(thirdUrl, user.email, user.password);
    expect((await third.done).code).toBe(0);
  });
});

describe('tokencli login opening the browser through BROWSER', () => {
  test('BROWSER is started with the authorize URL; a "browser" that logs in with it completes the login', async () => {
    const dir = tempDir();
    const browser = join(dir, 'fake-browser.mjs');
    // A stand-in browser: posts the login form with the URL it was given, follows the redirect.
    writeFileSync(
      browser,
      `#!${process.execPath}
const url = new URL(process.argv[2]);
const form = new URLSearchParams(url.searchParams);
form.set('email', ${JSON.stringify(DEMO.email)});
form.set('password', ${JSON.stringify(DEMO.password)});
const posted = await fetch(url.origin + url.pathname, { method: 'POST', body: form, redirect: 'manual' });
await fetch(posted.headers.get('location'));
`,
    );
    chmodSync(browser, 0o755);
    const login = startLogin(['--redirect-uri', 'http://127.0.0.1:0/callback'], {
      ...loginEnv(),
      BROWSER: browser,
    });
    const r = await login.done;
    expect(r.stderr).not.toContain('warning:');
    expect(r.stderr).toContain('Opening it in your browser…');
    expect(r.code).toBe(0);
  });

  test('a BROWSER that fails is a warning; the login keeps waiting and the URL still works', async () => {
    const login = startLogin(['--redirect-uri', 'http://127.0.0.1:0/callback'], {
      ...loginEnv(),
      BROWSER: join(tempDir(), 'no-such-browser'),
    });
    const url = await login.authorizeUrl;
    await loginWithoutBrowser(url, DEMO.email, DEMO.password);
    const r = await login.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^warning: could not open BROWSER \(.*no-such-browser\): the program was not found; open the URL yourself$/m,
    );
  });
});
