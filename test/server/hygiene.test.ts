import { connect, createServer } from 'node:net';
import { describe, expect, test, vi } from 'vitest';
import { startTokenService } from '../../src/server/index.js';
import { described } from '../helpers/described.js';
import { ipv6LoopbackMissing } from '../helpers/ipv6.js';
import {
  clientCredentials,
  DEMO,
  exchangeCode,
  obtainCode,
  rawRequest,
  startService,
  tokenInfo,
} from './helpers.js';

/** Generous: the machine is shared, and timers may fire late. */
const WAIT = { timeout: 10_000, interval: 20 };
const noIpv6 = await ipv6LoopbackMissing();

describe('routing', () => {
  test('an unknown path is a JSON 404', async () => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/token/');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(r.body)).toEqual({
      error: 'not_found',
      error_description:
        'no such endpoint; the service has /v2/oauth/authorize, /v2/oauth/token and /v2/oauth/tokeninfo',
    });
  });

  test.each([
    ['GET', '/v2/oauth/token', 'POST'],
    ['PUT', '/v2/oauth/token', 'POST'],
    ['POST', '/v2/oauth/tokeninfo', 'GET'],
    ['HEAD', '/v2/oauth/token', 'POST'],
    ['DELETE', '/v2/oauth/authorize', 'GET, POST'],
  ])('%s %s is a JSON 405 with Allow: %s', async (method, path, allow) => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, path, { method });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe(allow);
    if (method !== 'HEAD') {
      expect(JSON.parse(r.body)).toEqual({ error: 'method_not_allowed', error_description: `use ${allow}` });
    }
  });
});

describe('request body limit (64 KiB)', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  test('a declared length over the limit is refused with 413 at once', async () => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/token', {
      method: 'POST',
      headers: form,
      body: Buffer.alloc(64 * 1024 + 1, 'a'),
    });
    expect(r.status).toBe(413);
    expect(r.headers.connection).toBe('close');
    expect(JSON.parse(r.body)).toEqual({
      error: 'invalid_request',
      error_description: 'the request body is larger than 64 KiB',
    });
  });

  test('a chunked body is cut off once it passes the limit', async () => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/token', {
      method: 'POST',
      headers: { ...form, 'transfer-encoding': 'chunked' },
      body: Buffer.alloc(200 * 1024, 'a'),
    });
    expect(r.status).toBe(413);
  });

  test('a body of exactly 64 KiB is read', async () => {
    const service = await startService();
    const body = `grant_type=client_credentials&pad=${'a'.repeat(64 * 1024 - 34)}`;
    expect(body.length).toBe(64 * 1024);
    const r = await rawRequest(service.baseUrl, '/v2/oauth/token', { method: 'POST', headers: form, body });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).ErrorCode).toBe('invalid_request');
  });

  test('the login form has the same limit', async () => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/authorize', {
      method: 'POST',
      headers: form,
      body: Buffer.alloc(64 * 1024 + 1, 'a'),
    });
    expect(r.status).toBe(413);
  });
});

describe('Host check while bound to loopback (DNS rebinding)', () => {
  test.each(['localhost', 'localhost:1234', '127.0.0.1', '127.3.4.5:80', '[::1]:8080', 'LOCALHOST'])(
    'Host %s is accepted',
    async (host) => {
      const service = await startService();
      const r = await rawRequest(service.baseUrl, '/nowhere', { headers: { host } });
      expect(r.status).toBe(404);
    },
  );

  test.each([
    'evil.example',
    'evil.example:8080',
    '127.0.0.1.evil.example',
    'localhost@evil.example',
    '10.0.0.1',
  ])('Host %s is refused with a JSON 403', async (host) => {
    const service = await startService();
    const r = await rawRequest(service.baseUrl, '/v2/oauth/tokeninfo', { headers: { host } });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body)).toEqual({
      error: 'forbidden',
      error_description:
        'the Host header names neither a loopback address nor an allowed host; use localhost or 127.0.0.1, or start the service with --allow-host NAME',
    });
  });

  test('an HTTP/1.0 request without Host is refused', async () => {
    const service = await startService();
    const url = new URL(service.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.end('GET /v2/oauth/tokeninfo HTTP/1.0\r\n\r\n');
      });
      let text = '';
      socket.setEncoding('utf8').on('data', (d: string) => {
        text += d;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
  });

  test('allowHosts admits other names, any case and port', async () => {
    const service = await startService(undefined, { allowHosts: ['tokens'] });
    expect((await rawRequest(service.baseUrl, '/x', { headers: { host: 'Tokens:8080' } })).status).toBe(404);
    expect((await rawRequest(service.baseUrl, '/x', { headers: { host: 'tokens2' } })).status).toBe(403);
  });

  test('no check when bound to all interfaces', async () => {
    const service = await startService(undefined, { host: '0.0.0.0' });
    const port = new URL(service.baseUrl).port;
    const r = await rawRequest(`http://127.0.0.1:${port}`, '/x', { headers: { host: 'tokens.internal' } });
    expect(r.status).toBe(404);
  });
});

describe('request log', () => {
  test('one line per request: method, path without query, status, duration; no secret, code or token', async () => {
    const lines: string[] = [];
    const service = await startService(undefined, { log: (line) => lines.push(line) });
    const cc = await clientCredentials(service.baseUrl);
    await tokenInfo(service.baseUrl, cc.body.access_token as string);
    const { code, location } = await obtainCode(service.baseUrl, { state: 'secret-state' });
    const ex = await exchangeCode(service.baseUrl, code);
    await fetch(`${service.baseUrl}/v2/oauth/authorize?client_id=${DEMO.clientId}&state=secret-state`);
    await rawRequest(service.baseUrl, `/api/${cc.body.access_token}/x?token=abc`);
    await vi.waitFor(() => expect(lines).toHaveLength(6), WAIT);
    expect(lines[0]).toMatch(/^POST \/v2\/oauth\/token 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^GET \/v2\/oauth\/tokeninfo 200 \d+\.\dms$/);
    expect(lines[2]).toMatch(/^POST \/v2\/oauth\/authorize 302 \d+\.\dms$/);
    expect(lines[3]).toMatch(/^POST \/v2\/oauth\/token 200 /);
    expect(lines[4]).toMatch(/^GET \/v2\/oauth\/authorize 200 /);
    expect(lines[5]).toMatch(/^GET \/api\/…\/x 404 \d+\.\dms$/);
    const all = lines.join('\n');
    for (const secret of [
      DEMO.clientSecret,
      DEMO.password,
      'secret-state',
      code,
      location.search,
      cc.body.access_token,
      ex.body.access_token,
      ex.body.refresh_token,
    ]) {
      expect(all).not.toContain(secret as string);
    }
  });
});

describe('request log: a client that goes away', () => {
  test('before any answer: logged without a status, since none was sent', async () => {
    const lines: string[] = [];
    const service = await startService(undefined, { log: (line) => lines.push(line) });
    const url = new URL(service.baseUrl);
    // Expect: 100-continue makes node answer "100 Continue" as it hands the request to the
    // service, so once the client reads it the request is known to be in the service's hands.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /v2/oauth/token HTTP/1.1\r\nHost: ${url.host}\r\n` +
            'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n' +
            'Expect: 100-continue\r\n\r\n',
        );
      });
      socket.setEncoding('latin1').once('data', (text: string) => {
        expect(text).toMatch(/^HTTP\/1\.1 100 /);
        socket.write('grant_type=cl');
        socket.destroy();
        resolve();
      });
      socket.on('error', reject);
    });
    await vi.waitFor(() => expect(lines).toHaveLength(1), WAIT);
    expect(lines[0]).toMatch(/^POST \/v2\/oauth\/token - \(client went away\) \d+\.\dms$/);
    // The service still answers the next client.
    expect((await rawRequest(service.baseUrl, '/x')).status).toBe(404);
  });
});

describe('memory stays bounded', () => {
  test('expired codes and tokens are purged by the timer', async () => {
    const service = await startService(undefined, { purgeIntervalMs: 20 });
    await clientCredentials(service.baseUrl);
    const { code } = await obtainCode(service.baseUrl);
    await exchangeCode(service.baseUrl, code);
    await obtainCode(service.baseUrl);
    expect(service.stats()).toEqual({ codes: 2, accessTokens: 2, refreshTokens: 1, samlAssertionIds: 0 });
    service.clock.advance(20);
    await vi.waitFor(
      () =>
        expect(service.stats()).toEqual({ codes: 0, accessTokens: 2, refreshTokens: 1, samlAssertionIds: 0 }),
      WAIT,
    );
    service.clock.advance(3600);
    await vi.waitFor(
      () =>
        expect(service.stats()).toEqual({ codes: 0, accessTokens: 0, refreshTokens: 1, samlAssertionIds: 0 }),
      WAIT,
    );
    service.clock.advance(2592000);
    await vi.waitFor(
      () =>
        expect(service.stats()).toEqual({ codes: 0, accessTokens: 0, refreshTokens: 0, samlAssertionIds: 0 }),
      WAIT,
    );
  });

  test('the purge keeps live records', async () => {
    const service = await startService(undefined, { purgeIntervalMs: 20 });
    await clientCredentials(service.baseUrl);
    service.clock.advance(1800);
    const live = await clientCredentials(service.baseUrl);
    service.clock.advance(1800);
    await vi.waitFor(() => expect(service.stats().accessTokens).toBe(1), WAIT);
    expect((await tokenInfo(service.baseUrl, live.body.access_token as string)).status).toBe(200);
  });

  test('a closed service stops its timer', async () => {
    let calls = 0;
    const service = await startTokenService(undefined, {
      purgeIntervalMs: 10,
      now: () => {
        calls += 1;
        return 0;
      },
    });
    await vi.waitFor(() => expect(calls).toBeGreaterThan(2), WAIT);
    await service.close();
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(after);
  });
});

describe('starting and stopping', () => {
  test('a port in use is a usage error with a hint', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startTokenService(undefined, { port }).catch(described)).resolves.toMatchObject({
        message: `port ${port} on 127.0.0.1 is already in use`,
        hint: 'choose another port with --port, or --port 0 for any free port',
        exitCode: 2,
      });
    } finally {
      blocker.close();
    }
  });

  test('an address not of this machine is a usage error', async () => {
    await expect(startTokenService(undefined, { host: '192.0.2.1' })).rejects.toMatchObject({
      message: 'cannot listen on 192.0.2.1: not an address of this machine',
      code: 'config',
    });
  });

  test('an invalid configuration is refused before listening', async () => {
    await expect(startTokenService({ apps: [], users: [] } as never, { port: 0 })).rejects.toMatchObject({
      message: 'apps: must be a non-empty array',
      code: 'config',
    });
  });

  test('the handle reports the configuration with defaults filled in', async () => {
    const service = await startService();
    expect(service.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(service.config).toMatchObject({ code_ttl: 20, scope: 'demoservices' });
  });

  test.skipIf(noIpv6)(`an IPv6 host is put in brackets${noIpv6 ? ` (skipped: ${noIpv6})` : ''}`, async () => {
    const service = await startTokenService(undefined, { host: '::1' });
    try {
      expect(service.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect((await tokenInfo(service.baseUrl, 'x')).status).toBe(401);
    } finally {
      await service.close();
    }
  });

  test('close ends keep-alive connections and can be called twice', async () => {
    const service = await startTokenService();
    await clientCredentials(service.baseUrl);
    await Promise.all([service.close(), service.close()]);
    await expect(fetch(`${service.baseUrl}/v2/oauth/token`)).rejects.toThrow();
  });
});
