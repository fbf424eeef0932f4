/**
 * The HTTP layer against real loopback servers: timeouts, retries (docs/contract.md §2.4), redirects, the
 * 1 MiB cap and the User-Agent. Back-off waits go through an injected sleep that only records.
 */
import { describe, expect, it } from 'vitest';
import { hintFor } from '../../src/cli/output/error-hints.js';
import { NetworkError } from '../../src/http/network-error.js';
import { sendRequest, USER_AGENT } from '../../src/http/request.js';
import { VERSION } from '../../src/version.js';
import { rejectionOf } from '../helpers/rejection.js';
import { closedPort, json, startServerForTest, testHttp } from './loopback-server.js';

const failure = (promise: Promise<unknown>) => rejectionOf(promise, NetworkError);

const get = (origin: string, retry = true) => ({
  method: 'GET' as const,
  url: new URL(`${origin}/x`),
  retry,
});

describe('sendRequest', () => {
  it('sends User-Agent tokencli/<version> and returns status, headers and body', async () => {
    const server = await startServerForTest((_req, res) =>
      json(res, 200, { ok: true }, { 'x-extra': 'yes' }),
    );
    const res = await sendRequest(testHttp(), get(server.origin));
    expect(USER_AGENT).toBe(`tokencli/${VERSION}`);
    expect(server.requests[0]?.headers['user-agent']).toBe(`tokencli/${VERSION}`);
    expect(res.status).toBe(200);
    expect(res.headers['x-extra']).toBe('yes');
    expect(res.body).toBe('{"ok":true}');
  });

  it('gives up on a hung service near the timeout: exit 5, "timed out after 1 s", hint --timeout', async () => {
    const server = await startServerForTest(() => {
      /* never answers */
    });
    const started = Date.now();
    const error = await failure(sendRequest(testHttp({ timeoutMs: 1000 }), get(server.origin)));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(8000);
    expect(error.code).toBe('network');
    expect(error.failure).toBe('timeout');
    expect(error.message).toBe(`the request to ${server.origin} timed out after 1 s`);
    expect(hintFor(error)).toMatch(/--timeout SECONDS/);
    expect(server.requests).toHaveLength(1); // a timeout is never retried: the request reached the service
  });

  it('times out a body that stops halfway', async () => {
    const server = await startServerForTest((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"access_token":');
    });
    const error = await failure(sendRequest(testHttp({ timeoutMs: 1000 }), get(server.origin)));
    expect(error.failure).toBe('timeout');
    expect(error.message).toBe(`the request to ${server.origin} timed out after 1 s`);
  });

  it('retries 429 with Retry-After in seconds, then succeeds', async () => {
    const server = await startServerForTest((_req, res, _body, i) => {
      if (i === 0) json(res, 429, { error: 'slow_down' }, { 'retry-after': '3' });
      else json(res, 200, { ok: true });
    });
    const http = testHttp();
    const res = await sendRequest(http, get(server.origin));
    expect(res.status).toBe(200);
    expect(server.requests).toHaveLength(2);
    expect(http.slept).toStrictEqual([3000]);
  });

  it('retries 503 with Retry-After as an HTTP-date', async () => {
    const server = await startServerForTest((_req, res, _body, i) => {
      if (i === 0) json(res, 503, {}, { 'retry-after': new Date(Date.now() + 5000).toUTCString() });
      else json(res, 200, { ok: true });
    });
    const http = testHttp();
    expect((await sendRequest(http, get(server.origin))).status).toBe(200);
    expect(http.slept).toHaveLength(1);
    expect(http.slept[0]).toBeGreaterThan(2000);
    expect(http.slept[0]).toBeLessThanOrEqual(5000);
  });

  it('does not retry a Retry-After over 10 s, nor a 429/503 without one, nor a 500', async () => {
    for (const [status, headers] of [
      [429, { 'retry-after': '11' }],
      [503, {}],
      [500, { 'retry-after': '1' }],
      [503, { 'retry-after': 'soon' }],
    ] as const) {
      const server = await startServerForTest((_req, res) => json(res, status, {}, headers));
      const http = testHttp();
      const res = await sendRequest(http, get(server.origin));
      expect(res.status).toBe(status);
      expect(server.requests).toHaveLength(1);
      expect(http.slept).toStrictEqual([]);
      await server.close();
    }
  });

  it('caps 503 retries at 2 (three attempts) and returns the last answer', async () => {
    const server = await startServerForTest((_req, res) =>
      json(res, 503, { error: 'down' }, { 'retry-after': '0' }),
    );
    const http = testHttp();
    const res = await sendRequest(http, get(server.origin));
    expect(res.status).toBe(503);
    expect(server.requests).toHaveLength(3);
    expect(http.slept).toStrictEqual([0, 0]);
  });

  it('never retries when the caller says so (authorization_code)', async () => {
    const server = await startServerForTest((_req, res) => json(res, 503, {}, { 'retry-after': '1' }));
    const http = testHttp();
    expect((await sendRequest(http, get(server.origin, false))).status).toBe(503);
    expect(server.requests).toHaveLength(1);
    expect(http.slept).toStrictEqual([]);
  });

  it('retries a refused connection twice, then fails with exit 5', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const http = testHttp();
    const error = await failure(sendRequest(http, get(origin)));
    expect(http.slept).toStrictEqual([250, 500]);
    expect(error.code).toBe('network');
    expect(error.failure).toBe('connect');
    expect(error.systemCode).toBe('ECONNREFUSED');
    expect(error.message).toBe(`could not connect to ${origin}: connection refused`);
    expect(hintFor(error)).toMatch(/--base-url/);
  });

  it('retries a DNS failure twice, then fails with exit 5', async () => {
    const http = testHttp();
    const error = await failure(sendRequest(http, get('http://tokencli-test.invalid')));
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(error.systemCode);
    expect(error.failure).toBe('dns');
    expect(error.message).toMatch(/^could not resolve the host of http:\/\/tokencli-test\.invalid \(E/);
    expect(http.slept).toStrictEqual([250, 500]);
  });

  it('does not retry a refused connection without retries', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const http = testHttp();
    expect((await failure(sendRequest(http, get(origin, false)))).systemCode).toBe('ECONNREFUSED');
    expect(http.slept).toStrictEqual([]);
  });

  it('does not follow redirects: the 3xx comes back to the caller', async () => {
    let followed = false;
    const server = await startServerForTest((req, res) => {
      if (req.url === '/elsewhere') followed = true;
      res.writeHead(307, { location: '/elsewhere' });
      res.end();
    });
    const res = await sendRequest(testHttp(), { ...get(server.origin), method: 'POST', body: 'a=1' });
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe('/elsewhere');
    expect(followed).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('cuts off a body over 1 MiB and reports it (exit 5)', async () => {
    const server = await startServerForTest((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    });
    const error = await failure(sendRequest(testHttp(), get(server.origin)));
    expect(error.failure).toBe('too_large');
    expect(error.code).toBe('network');
    expect(error.message).toBe(
      `the response from ${server.origin} (HTTP 200) was larger than 1 MiB and was cut off`,
    );
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const body = 'y'.repeat(1024 * 1024);
    const server = await startServerForTest((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(body);
    });
    expect((await sendRequest(testHttp(), get(server.origin))).body).toBe(body);
  });

  it("stops at once with the caller's abort reason (Ctrl-C)", async () => {
    const server = await startServerForTest(() => {
      /* never answers */
    });
    const controller = new AbortController();
    const reason = new Error('interrupted');
    setTimeout(() => controller.abort(reason), 200);
    await expect(sendRequest(testHttp(), { ...get(server.origin), signal: controller.signal })).rejects.toBe(
      reason,
    );
  });
});
