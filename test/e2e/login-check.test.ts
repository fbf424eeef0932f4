/**
 * `tokencli login` checks the authorize URL before it sends a browser there (docs/contract.md
 * §2.5): a service that cannot be reached or a client id it does not know ends the login at once
 * with the network or the service's error, instead of a wait of --timeout-login (300 s); an answer
 * a browser may still get past is a warning, and the login waits as before.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, type ServeHandle, startServe, tempDir } from '../helpers/cli.js';
import { ANY_PORT, expectNothingStored, loginWithoutBrowser, startLogin } from '../helpers/cli-login.js';
import { clientEnv } from '../helpers/client-env.js';
import { DEMO, DEMO_CLIENT } from './env.js';

let serve: ServeHandle;
beforeAll(async () => {
  serve = await startServe(['--control']);
});
afterAll(async () => {
  await serve?.stop();
});

/** A loopback port nothing listens on (bound, then released). */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A login run that would wait the default 300 s if nothing ended it sooner. */
async function loginQuickly(env: Record<string, string>) {
  const started = Date.now();
  const r = await runCli(['login', ...ANY_PORT], { env, timeoutMs: 30_000 });
  return { ...r, seconds: (Date.now() - started) / 1000 };
}

describe('tokencli login checks the authorize URL first', () => {
  test('a service that is not running: exit 5 at once, with the network hint, no URL offered', async () => {
    const configDir = tempDir();
    const env = clientEnv(`http://127.0.0.1:${await unusedPort()}`, DEMO_CLIENT, configDir);
    const r = await loginQuickly(env);
    expect(r.code, r.stderr).toBe(5);
    expect(r.seconds).toBeLessThan(15);
    expect(r.stderr).toMatch(/^error: could not connect to http:\/\/127\.0\.0\.1:\d+: connection refused$/m);
    expect(r.stderr).toContain(
      'hint: check the base URL (--base-url, TOKENCLI_BASE_URL) and that the token service is running',
    );
    expect(r.stderr).not.toContain('Waiting up to');
    expect(r.stderr).not.toContain('/v2/oauth/authorize?');
    await expectNothingStored(env);
  });

  test("a client id the service does not know: exit 3 at once with the service's words", async () => {
    const env = clientEnv(serve.baseUrl, { id: 'no-such-client', secret: 'x' }, tempDir());
    const r = await loginQuickly(env);
    expect(r.code, r.stderr).toBe(3);
    expect(r.seconds).toBeLessThan(15);
    expect(r.stderr).toMatch(
      /^error: the token service refused the login request at http:\/\/127\.0\.0\.1:\d+\/v2\/oauth\/authorize \(HTTP 400\): Cannot sign in\. No application is registered with client_id "no-such-client"\. The application sent an authorization request this service cannot accept\.$/m,
    );
    expect(r.stderr).toMatch(
      /^hint: nothing was opened in the browser; check the client id "no-such-client"/m,
    );
    expect(r.stderr).not.toContain('Waiting up to');
  });

  test('a base URL without the authorize endpoint: exit 5 naming the URL requested', async () => {
    const env = clientEnv(`${serve.baseUrl}/no/such/prefix`, DEMO_CLIENT, tempDir());
    const r = await loginQuickly(env);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain(
      `hint: check the base URL (--base-url, TOKENCLI_BASE_URL): the authorize endpoint requested was ${serve.baseUrl}/no/such/prefix/v2/oauth/authorize`,
    );
  });

  test('an answer a browser may get past (403): a warning, and the login goes on', async () => {
    const fault = await fetch(`${serve.baseUrl}/_control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: 'authorize', status: 403 }),
    });
    expect(fault.status).toBeLessThan(300);
    const env = clientEnv(serve.baseUrl, DEMO_CLIENT, tempDir());
    const login = startLogin(ANY_PORT, env);
    const url = await login.authorizeUrl;
    expect(login.stderr()).toContain(
      'warning: the authorize URL answered HTTP 403 to a check made without a browser; the browser may not get a login page either (--verbose shows the answer); waiting for it anyway',
    );
    await loginWithoutBrowser(url, DEMO.email, DEMO.password);
    const r = await login.done;
    expect(r.code, r.stderr).toBe(0);
    expect((await runCli(['token'], { env })).code).toBe(0);
  });
});

test('login --help says that the URL is checked first and what is kept', async () => {
  const r = await runCli(['login', '--help']);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Before the URL is shown or opened, tokencli requests it once');
  expect(r.stdout).toContain('stores nothing and says why');
  expect(r.stdout).toContain('renewing the tokens later needs it again');
});
