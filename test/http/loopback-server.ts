/**
 * A real node:http(s) server on 127.0.0.1, port 0, recording every request it receives: the tests
 * of the protocol layer talk to it over loopback instead of faking the network.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { HttpSettings } from '../../src/http/settings.js';
import type { ServiceClient } from '../../src/oauth/types.js';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string, index: number) => void;

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` (or https). */
  origin: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler, tls?: ServerOptions): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body, requests.length - 1);
    });
  };
  const server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const running: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** startServer for one test: closed after it. */
export async function startServerForTest(handler: Handler, tls?: ServerOptions): Promise<LoopbackServer> {
  const server = await startServer(handler, tls);
  running.push(server);
  return server;
}

/** Answers JSON with the given status (and headers). */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** HTTP settings for tests: generous timeout, no real back-off waits, waits recorded. */
export function testHttp(overrides: Partial<HttpSettings> = {}): HttpSettings & { slept: number[] } {
  const slept: number[] = [];
  return {
    timeoutMs: 10_000,
    sleep: async (ms: number) => {
      slept.push(ms);
    },
    slept,
    ...overrides,
  };
}

export const FIXED_NOW = new Date('2030-01-02T03:04:05.000Z');

export function testClient(baseUrl: string, http: HttpSettings, clientSecret?: string): ServiceClient {
  return { baseUrl, clientId: 'demo-client', clientSecret, http, now: () => FIXED_NOW };
}

/** The standard success body of the service (docs/contract.md §1 sample, `redirect_url` spelling). */
export const TOKEN_BODY = {
  access_token: 'at-123',
  token_type: 'BearerToken',
  expires_in: 3599,
  email: 'demo@example.com',
  redirect_url: 'http://127.0.0.1:8765/callback',
  flags: [{ name: 'NEW' }],
};
