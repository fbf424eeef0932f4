/**
 * JSON replies and the service's error bodies, in the exact shapes of SPEC.md §1 (the platform's
 * own three shapes) and RFC 6749 §5.2.
 */
import type { ServerResponse } from 'node:http';
import { endAfterDrainingBody } from './linger.js';

/** A JSON answer, built by the endpoint logic and written by `sendJson`. */
export interface JsonReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent before the request body was read: end only once it is drained (see linger.ts). */
  drainBody?: boolean;
}

/** Headers of every token and tokeninfo answer (RFC 6749 §5.1): tokens are never cached. */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/**
 * Writes a JSON answer, never sniffed as anything else. Headers are set in one object literal
 * (no spreads): this runs for every request, and its cost shows in the throughput benchmark.
 */
export function sendJson(res: ServerResponse, reply: JsonReply, extraHeaders?: Record<string, string>): void {
  const text = JSON.stringify(reply.body);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(text),
  };
  if (extraHeaders) Object.assign(headers, extraHeaders);
  if (reply.headers) Object.assign(headers, reply.headers);
  res.writeHead(reply.status, headers);
  if (reply.drainBody) endAfterDrainingBody(res, text);
  else res.end(text);
}
