/**
 * A raw GET over loopback for the listener tests: unlike fetch, http.request lets a test send any
 * Host header (DNS-rebinding checks) and talk to [::1] directly.
 */
import { type RawResponse, rawHttp } from '../helpers/raw-http.js';

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
  return rawHttp(
    { host: address, port, path, method: options.method ?? 'GET', headers, agent: false, setHost: false },
    host === null ? {} : { host },
  );
}
