/**
 * Direct connections over node:http / node:https, for calls that no proxy variable concerns.
 *
 * Loading undici costs about 28 ms (its module graph and the llhttp WebAssembly), more than a
 * whole minimal node script that asks tokeninfo (docs/contract.md §4: `info --json` ≤ 1.5 × that script).
 * Node's own HTTP client is already in the binary. So when none of HTTPS_PROXY / HTTP_PROXY (any
 * case) is set, requests go out through this transport; whenever one is, undici's
 * EnvHttpProxyAgent takes them, honouring NO_PROXY (dispatcher.ts). Both sit behind the same
 * `request()` shape, so timeouts, retries, the body cap, redirects (never followed: neither
 * follows them) and the trace are shared code in request.ts.
 */
import type { IncomingMessage } from 'node:http';
import { withRootCertificates } from './ca-certificates.js';

export interface TransportRequest {
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | undefined;
  signal: AbortSignal;
  /** Whole milliseconds; the deadline signal covers node's client, undici also takes these. */
  headersTimeout: number;
  bodyTimeout: number;
}

export interface TransportResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown };
}

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  /** Releases whatever the transport holds once the call is over. */
  destroy(): Promise<void>;
}

/** Whether any proxy variable is set; then undici's EnvHttpProxyAgent must carry the request. */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => !!env[name]);
}

/**
 * `extraCa`: the extra CAs (ca-certificates.ts), trusted besides node's roots on an https
 * connection; none: node's default trust.
 */
export function nodeTransport(extraCa: string[] | undefined): Transport {
  const open = new Set<IncomingMessage>();
  return {
    async request({ origin, path, method, headers, body, signal }) {
      const url = new URL(origin);
      const secure = url.protocol === 'https:';
      // Loaded on the first call, and as node's own module: `import()` of a builtin builds an ES
      // module facade over every export first, about a millisecond for node:http.
      const client = secure ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');
      return new Promise<TransportResponse>((resolve, reject) => {
        const outgoing = client.request(
          {
            protocol: url.protocol,
            // URL keeps IPv6 literals in brackets; the socket layer wants them bare.
            hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
            port: url.port || (secure ? 443 : 80),
            path,
            method,
            headers:
              body === undefined
                ? headers
                : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
            // One connection per call, closed with it: nothing keeps the CLI's event loop alive.
            agent: false,
            ...(secure && extraCa !== undefined ? { ca: withRootCertificates(extraCa) } : {}),
            signal,
          },
          (response) => {
            open.add(response);
            response.once('close', () => open.delete(response));
            resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response });
          },
        );
        outgoing.once('error', reject);
        outgoing.end(body);
      });
    },
    async destroy() {
      for (const response of open) response.destroy();
      open.clear();
    },
  };
}
