/**
 * HTTP_PROXY / NO_PROXY through undici's EnvHttpProxyAgent (docs/contract.md §2.4), against a small real
 * forward proxy (CONNECT tunnels and absolute-URI requests) run here on loopback. The agent reads
 * the variables when it is built, and the HTTP layer builds one per call, so setting them here is
 * enough.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hintFor } from '../../src/cli/output/error-hints.js';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { ExitCode } from '../../src/errors.js';
import { NetworkError } from '../../src/http/network-error.js';
import { sendRequest } from '../../src/http/request.js';
import { json, type LoopbackServer, startServer, testHttp } from './loopback-server.js';

interface ForwardProxy {
  origin: string;
  /** `CONNECT host:port` or `GET http://…` lines, one per proxied request or tunnel. */
  seen: string[];
  close(): Promise<void>;
}

async function startProxy(refuseTunnels = false): Promise<ForwardProxy> {
  const seen: string[] = [];
  const proxy: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  proxy.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    if (refuseTunnels) {
      socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

const PROXY_VARS = [
  'HTTP_PROXY',
  'http_proxy',
  'HTTPS_PROXY',
  'https_proxy',
  'NO_PROXY',
  'no_proxy',
] as const;

describe('proxies from the environment', () => {
  let service: LoopbackServer;
  let proxy: ForwardProxy;
  const saved: Record<string, string | undefined> = {};

  beforeEach(async () => {
    for (const name of PROXY_VARS) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
    service = await startServer((_req, res) => json(res, 200, { ok: true }));
    proxy = await startProxy();
  });
  afterEach(async () => {
    for (const name of PROXY_VARS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await service.close();
    await proxy.close();
  });

  const get = () => ({
    method: 'GET' as const,
    url: new URL(`${service.origin}/v2/oauth/tokeninfo?client_id=c`),
    retry: true,
  });

  it('sends the request through HTTP_PROXY', async () => {
    process.env.HTTP_PROXY = proxy.origin;
    const res = await sendRequest(testHttp(), get());
    expect(res.status).toBe(200);
    expect(service.requests).toHaveLength(1);
    expect(proxy.seen.length).toBe(1);
    expect(proxy.seen[0]).toMatch(
      new RegExp(`^(CONNECT 127\\.0\\.0\\.1:${service.port}|GET ${service.origin}/v2/oauth/tokeninfo)`),
    );
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    process.env.HTTP_PROXY = proxy.origin;
    process.env.NO_PROXY = '127.0.0.1';
    const res = await sendRequest(testHttp(), get());
    expect(res.status).toBe(200);
    expect(proxy.seen).toStrictEqual([]);
  });

  it('reports a proxy that refuses the tunnel (exit 5, hint naming the proxy variables)', async () => {
    const refusing = await startProxy(true);
    process.env.HTTP_PROXY = refusing.origin;
    try {
      const error = await sendRequest(testHttp(), get()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).failure).toBe('proxy');
      expect(exitCodeOf(error as NetworkError)).toBe(ExitCode.unavailable);
      expect((error as NetworkError).message).toMatch(
        /^the proxy refused to connect to http:\/\/127\.0\.0\.1:\d+: .*502/,
      );
      expect(hintFor(error as NetworkError)).toBe('check HTTPS_PROXY / HTTP_PROXY / NO_PROXY');
      expect(service.requests).toHaveLength(0);
    } finally {
      await refusing.close();
    }
  });

  it('goes direct without proxy variables', async () => {
    await sendRequest(testHttp(), get());
    expect(proxy.seen).toStrictEqual([]);
    expect(service.requests).toHaveLength(1);
  });
});
