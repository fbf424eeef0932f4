/**
 * `tokencli login` as a process, without a browser: the login form of `tokencli serve` is posted
 * with fetch and the redirect followed by hand, so each outcome of docs/contract.md §2.5 is checked on the
 * exit code, stderr and the store. (The real-browser run is login-browser.test.ts.)
 */
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import {
  ANY_PORT,
  demoLoginEnv,
  expectNothingStored,
  hitRedirect,
  loginWithoutBrowser,
  redirectUriOf,
  startLogin,
} from '../helpers/cli-login.js';
import { serveForFile } from '../helpers/serve.js';
import { DEMO } from './env.js';

const serve = serveForFile();

const loginEnv = (configDir?: string) => demoLoginEnv(serve.baseUrl, configDir);

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
      'error: the login was not completed: access was denied (access_denied: The user said no)',
    );
    // The whole escape sequence is gone, not just its ESC byte.
    expect(r.stderr).not.toContain('[2J');
    expect(r.stderr).toMatch(/^hint: run `tokencli login` again and allow access in the browser$/m);
    expect(r.stderr).not.toContain('\u001b');
    await expectNothingStored(loginEnv(configDir));
  });

  test('error=access_denied without a description: the hint also suggests --scope', async () => {
    const login = startLogin(ANY_PORT, loginEnv());
    const url = await login.authorizeUrl;
    await hitRedirect(url, { state: url.searchParams.get('state') ?? '', error: 'access_denied' });
    const r = await login.done;
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('error: the login was not completed: access was denied (access_denied)');
    expect(r.stderr).toMatch(
      /^hint: run `tokencli login` again and allow access in the browser; no reason was given, and some services deny a login that asks for no scope: name one with --scope SCOPE \(e\.g\. --scope openid\)$/m,
    );
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
    await expectNothingStored(loginEnv(configDir));
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

  test.skipIf(process.platform === 'win32')(
    'Ctrl-C while waiting: exit 130, the listener gone, nothing stored (skipped on Windows: no SIGINT to send; a kill ends the process at once)',
    async () => {
      const configDir = tempDir();
      const login = startLogin(ANY_PORT, loginEnv(configDir));
      const url = await login.authorizeUrl;
      login.child.kill('SIGINT');
      const r = await login.done;
      expect(r.code).toBe(130);
      expect(r.stderr).toContain('error: interrupted');
      await expectNothingStored(loginEnv(configDir));
      const refused = await fetch(redirectUriOf(url)).catch(
        (e: { cause?: { code?: string } }) => e.cause?.code,
      );
      expect(refused).toBe('ECONNREFUSED');
    },
  );

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
