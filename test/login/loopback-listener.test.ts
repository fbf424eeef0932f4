import { connect, createServer as createNetServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, test } from 'vitest';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode, InputError, TokencliError } from '../../src/errors.js';
import { pages } from '../../src/login/callback-page.js';
import { LoopbackListener } from '../../src/login/loopback-listener.js';
import { parseRedirectUri } from '../../src/login/redirect-uri.js';
import { described } from '../helpers/described.js';
import { rawGet } from './http-get.js';

const STATE = 'expected-state-0123456789abcdef';
const listeners: LoopbackListener[] = [];
const blockers: Server[] = [];

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
  await Promise.all(blockers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function start(
  uri = 'http://127.0.0.1:0/callback',
  onIgnored?: (why: string) => void,
  closeGraceMs = 500,
) {
  const listener = await LoopbackListener.start({
    redirect: parseRedirectUri(uri),
    expectedState: STATE,
    onIgnored,
    closeGraceMs,
  });
  listeners.push(listener);
  return listener;
}

function expectSafePageHeaders(headers: Record<string, string | string[] | undefined>) {
  expect(headers['content-type']).toBe('text/html; charset=utf-8');
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
}

async function ipv6Available(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createNetServer();
    s.once('error', () => resolve(false));
    s.listen(0, '::1', () => s.close(() => resolve(true)));
  });
}

describe('binding', () => {
  test('port 0 binds a free port on 127.0.0.1 only, and the redirect URI carries it', async () => {
    const listener = await start();
    expect(listener.port).toBeGreaterThan(0);
    expect(listener.redirectUri).toBe(`http://127.0.0.1:${listener.port}/callback`);
    // Not reachable on any other address of this machine.
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (external) {
      const refused = await new Promise<string>((resolve) => {
        const socket = connect(listener.port, external.address);
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');
    }
  });

  test('localhost binds 127.0.0.1 and keeps "localhost" in the redirect URI', async () => {
    const listener = await start('http://localhost:0/cb');
    expect(listener.redirectUri).toBe(`http://localhost:${listener.port}/cb`);
    const r = await rawGet(listener.port, '/nothing', { host: `localhost:${listener.port}` });
    expect(r.status).toBe(404);
  });

  test('a taken port is a usage error naming --redirect-uri', async () => {
    const blocker = createNetServer();
    blockers.push(blocker);
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const error = await LoopbackListener.start({
      redirect: parseRedirectUri(`http://127.0.0.1:${port}/callback`),
      expectedState: STATE,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(exitCodeOf(error as InputError)).toBe(ExitCode.usage);
    expect(described(error).message).toBe(
      `cannot listen on 127.0.0.1:${port} for --redirect-uri: the port is already in use`,
    );
    expect(described(error).hint).toContain('--redirect-uri http://127.0.0.1:0/callback');
  });

  test('[::1] binds the IPv6 loopback and accepts only its own Host', async (ctx) => {
    if (!(await ipv6Available())) ctx.skip('this machine has no IPv6 loopback (::1)');
    const listener = await start('http://[::1]:0/callback');
    expect(listener.redirectUri).toBe(`http://[::1]:${listener.port}/callback`);
    const ok = rawGet(listener.port, `/callback?state=${STATE}&code=c6`, { address: '::1' });
    const received = await listener.waitForCode();
    expect(received.code).toBe('c6');
    await received.respond(pages.success('Test.'));
    expect((await ok).status).toBe(200);
    const foreign = await rawGet(listener.port, '/x', { address: '::1', host: `127.0.0.1:${listener.port}` });
    expect(foreign.status).toBe(403);
  });
});

describe('requests', () => {
  test.each<[string | null, string]>([
    ['evil.example', 'a rebinding name'],
    ['evil.example:PORT', 'a rebinding name with the port'],
    ['127.0.0.1:1', 'the loopback address with another port'],
    ['127.0.0.1', 'the loopback address without the port'],
    [null, 'no Host at all'],
  ])('Host %s (%s) is refused with 403 and the flow keeps waiting', async (host) => {
    const listener = await start();
    const r = await rawGet(listener.port, `/callback?state=${STATE}&code=abc`, {
      host: host === null ? null : host.replace('PORT', String(listener.port)),
    });
    expect(r.status).toBe(403);
    expectSafePageHeaders(r.headers);
    // The code in that forged request did not count.
    const good = rawGet(listener.port, `/callback?state=${STATE}&code=real`);
    expect((await listener.waitForCode()).code).toBe('real');
    await (await listener.waitForCode()).respond(pages.success('Test.'));
    expect((await good).status).toBe(200);
  });

  test('other paths get 404 and a non-GET on the redirect path gets 405', async () => {
    const listener = await start();
    expect((await rawGet(listener.port, '/favicon.ico')).status).toBe(404);
    expect((await rawGet(listener.port, '/callback/extra?state=x')).status).toBe(404);
    expect((await rawGet(listener.port, '/')).status).toBe(404);
    const post = await rawGet(listener.port, `/callback?state=${STATE}&code=x`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
  });

  test.each([
    ['no state', '/callback?code=abc'],
    ['another state', '/callback?code=abc&state=other'],
    ['two states', `/callback?code=abc&state=${STATE}&state=other`],
    ['an error without state', '/callback?error=access_denied'],
  ])('%s: an error page, the flow keeps waiting', async (_what, path) => {
    const ignored: string[] = [];
    const listener = await start(undefined, (why) => ignored.push(why));
    const r = await rawGet(listener.port, path);
    expect(r.status).toBe(400);
    expectSafePageHeaders(r.headers);
    expect(r.body).toContain('Not this login');
    expect(ignored).toEqual(['a redirect without the state of this login (an old tab, or a forged request)']);

    const good = rawGet(listener.port, `/callback?state=${STATE}&code=the-code`);
    const received = await listener.waitForCode();
    expect(received.code).toBe('the-code');
    await received.respond(pages.success('You are logged in as demo@example.com.'));
    const page = await good;
    expect(page.status).toBe(200);
    expect(page.body).toContain('You are logged in as demo@example.com.');
  });

  test('the code: the tab waits for the outcome, then gets a self-contained success page', async () => {
    const listener = await start();
    let answered = false;
    const browser = rawGet(listener.port, `/callback?code=c0de&state=${STATE}`).then((r) => {
      answered = true;
      return r;
    });
    const received = await listener.waitForCode();
    expect(received.code).toBe('c0de');
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    await received.respond(pages.success('You are logged in as <b>demo</b>.'));
    const r = await browser;
    expect(r.status).toBe(200);
    expectSafePageHeaders(r.headers);
    expect(r.body).toContain('You are logged in as &lt;b&gt;demo&lt;/b&gt;.');
    expect(r.body).not.toMatch(/<(script|img|link|iframe)\b|\b(src|href)=/i);
    // Later redirects are turned away until the listener closes.
    expect((await rawGet(listener.port, `/callback?code=again&state=${STATE}`)).status).toBe(409);
  });

  test('error=access_denied with the right state ends the flow with exit 6 and the description', async () => {
    const listener = await start();
    const r = await rawGet(
      listener.port,
      `/callback?state=${STATE}&error=access_denied&error_description=${encodeURIComponent('User said <no>\u001b[31m red\u001b]0;oscpayload\u0007')}`,
    );
    expect(r.status).toBe(400);
    // Whole escape sequences go, not just the ESC byte (which left `[31m` behind).
    expect(r.body).toContain('access_denied: User said &lt;no&gt; red. ');
    expect(r.body).not.toContain('[31m');
    expect(r.body).not.toContain('oscpayload');
    const error = await listener.waitForCode().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokencliError);
    expect(exitCodeOf(error as TokencliError)).toBe(ExitCode.loginIncomplete);
    expect((error as TokencliError).message).toBe(
      'the login was not completed: access was denied (access_denied: User said <no> red)',
    );
  });

  test('any other error with the right state ends the flow with exit 3', async () => {
    const listener = await start();
    await rawGet(
      listener.port,
      `/callback?state=${STATE}&error=invalid_request&error_description=bad+redirect`,
    );
    const error = (await listener.waitForCode().catch((e: unknown) => e)) as TokencliError;
    expect(exitCodeOf(error)).toBe(ExitCode.refused);
    expect(error.message).toBe(
      'the service refused the authorization request (invalid_request: bad redirect)',
    );
  });

  test('the right state without a code or error ends the flow with exit 5', async () => {
    const listener = await start();
    await rawGet(listener.port, `/callback?state=${STATE}`);
    const error = (await listener.waitForCode().catch((e: unknown) => e)) as TokencliError;
    expect(exitCodeOf(error)).toBe(ExitCode.unavailable);
    expect(error.message).toBe('the service redirected back with no single code and no error');
  });
});

describe('closing', () => {
  test('a held browser request is answered before the listener closes', async () => {
    const listener = await start();
    const browser = rawGet(listener.port, `/callback?code=c0de&state=${STATE}`);
    await listener.waitForCode();
    await listener.close();
    const r = await browser;
    expect(r.status).toBe(503);
    expect(r.body).toContain('Login interrupted');
  });

  test('a connection that never sent a request does not keep the listener open', async () => {
    // A grace period far longer than the assertion below: the spare connection must be cut at once.
    const listener = await start(undefined, undefined, 60_000);
    const socket = connect(listener.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const closed = new Promise((r) => socket.once('close', r));
    const started = Date.now();
    await listener.close();
    await closed;
    expect(Date.now() - started).toBeLessThan(10_000);
    // Nothing listens there any more.
    const error = await rawGet(listener.port, '/').catch((e: NodeJS.ErrnoException) => e.code);
    expect(error).toBe('ECONNREFUSED');
  });

  test('close() makes a pending waitForCode() reject, and can be called twice', async () => {
    const listener = await start();
    const waiting = listener.waitForCode().catch((e: unknown) => (e as Error).message);
    await Promise.all([listener.close(), listener.close()]);
    expect(await waiting).toBe('the login listener was closed');
  });
});
