/**
 * A request through node:http, for what fetch will not send (a chosen or missing Host header, an
 * odd method, a body with a lying content type) or where it cannot go ([::1] by address).
 */
import { type RequestOptions, request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request (`host` set as the Host header after the others) and reads the whole answer. */
export function rawHttp(
  options: RequestOptions,
  extra: { host?: string; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    if (extra.host !== undefined) req.setHeader('Host', extra.host);
    req.on('error', reject);
    req.end(extra.body);
  });
}
