/**
 * Faults in the middle of a response. A real loopback server produces them (a socket destroyed
 * after half a body, a body trickled byte by byte past the deadline); undici's MockAgent is used
 * only to show that an injected transport (HttpSettings.transport) is used as given and left open.
 */
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { hintFor } from '../../src/cli/output/error-hints.js';
import { undiciTransport } from '../../src/http/dispatcher.js';
import { NetworkError } from '../../src/http/network-error.js';
import { sendRequest } from '../../src/http/request.js';
import { startServerForTest, testHttp } from './loopback-server.js';

const get = (origin: string) => ({
  method: 'GET' as const,
  url: new URL(`${origin}/v2/oauth/tokeninfo`),
  retry: true,
});

describe('faults mid-response', () => {
  it('reports a connection reset mid-body (exit 5) without retrying', async () => {
    const server = await startServerForTest((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"access_token":"half', () => req.socket.destroy());
    });
    const http = testHttp();
    const error = await sendRequest(http, get(server.origin)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const e = error as NetworkError;
    expect(e.code).toBe('network');
    expect(e.failure).toBe('reset');
    expect(e.message).toMatch(
      new RegExp(
        `^the connection to ${server.origin.replace(/\./g, '\\.')} broke before the response was complete \\(`,
      ),
    );
    expect(server.requests).toHaveLength(1);
    expect(http.slept).toStrictEqual([]);
  });

  it('ends a body trickling past the deadline, though bytes keep arriving', async () => {
    let timer: NodeJS.Timeout | undefined;
    const server = await startServerForTest((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":"');
      timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const error = await sendRequest(testHttp({ timeoutMs: 1000 }), get(server.origin)).catch(
      (e: unknown) => e,
    );
    clearInterval(timer);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).failure).toBe('timeout');
    expect((error as NetworkError).message).toBe(`the request to ${server.origin} timed out after 1 s`);
  });
});

describe('answers that are not HTTP', () => {
  it('reports garbage on the socket as invalid HTTP, exit 5, without retrying', async () => {
    const sockets = new Set<Socket>();
    const garbage = createServer((socket) => {
      sockets.add(socket);
      socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n');
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
    try {
      const http = testHttp();
      const error = await sendRequest(http, get(origin)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).code).toBe('network');
      // The parser's own words differ between node's client (HPE_ code) and undici (a message).
      expect((error as NetworkError).message).toMatch(
        new RegExp(
          `^the answer from ${origin.replace(/[.]/g, '\\.')} is not valid HTTP( \\(HPE_[A-Z_]+\\)|: .+)$`,
        ),
      );
      expect(hintFor(error as NetworkError)).toMatch(/scheme and port/);
      expect(http.slept).toStrictEqual([]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => garbage.close(() => resolve()));
    }
  });

  it('refuses a timeout that is not a positive number (a programming error)', async () => {
    await expect(sendRequest(testHttp({ timeoutMs: Number.NaN }), get('http://127.0.0.1:9'))).rejects.toThrow(
      TypeError,
    );
    await expect(sendRequest(testHttp({ timeoutMs: 0 }), get('http://127.0.0.1:9'))).rejects.toThrow(
      'HttpSettings.timeoutMs must be a positive number of milliseconds, got 0',
    );
  });
});

describe('an injected transport', () => {
  it('is used as given (no network) and not closed after the call', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get('https://gw.example');
    pool.intercept({ path: '/api/v2/oauth/tokeninfo', method: 'GET' }).reply(200, { status: 'approved' });
    pool
      .intercept({ path: '/api/v2/oauth/tokeninfo', method: 'GET' })
      .replyWithError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    const http = testHttp({ transport: undiciTransport(agent) });
    const url = new URL('https://gw.example/api/v2/oauth/tokeninfo');
    const res = await sendRequest(http, { method: 'GET', url, retry: true });
    expect(res.body).toBe('{"status":"approved"}');
    const error = await sendRequest(http, { method: 'GET', url, retry: true }).catch((e: unknown) => e);
    expect((error as NetworkError).failure).toBe('reset');
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
});
