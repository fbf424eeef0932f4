/**
 * A raw GET over loopback for the listener tests: unlike fetch, http.request lets a test send any
 * Host header (DNS-rebinding checks) and talk to [::1] directly.
 */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RawGetOptions {
  address?: string;
  /** Sent as the Host header; `null` sends none. Default: the address and port. */
  host?: string | null;
  method?: string;
}

export function rawGet(port: number, path: string, options: RawGetOptions = {}): Promise<RawResponse> {
  const address = options.address ?? '127.0.0.1';
  const headers: Record<string, string> = {};
  const host =
    options.host === undefined ? `${address.includes(':') ? `[${address}]` : address}:${port}` : options.host;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: address, port, path, method: options.method ?? 'GET', headers, agent: false, setHost: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    if (host !== null) req.setHeader('Host', host);
    req.on('error', reject);
    req.end();
  });
}
