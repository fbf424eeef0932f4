/**
 * JSON replies and the service's error bodies, in the exact shapes of docs/contract.md §1 (the platform's
 * own three shapes) and RFC 6749 §5.2.
 */
import type { ServerResponse } from 'node:http';
import { endBatched } from './answer-batch.js';
import { endAfterDrainingBody } from './linger.js';

/**
 * A body serialised ahead of `sendJson`: the success answers of the token and tokeninfo endpoints,
 * which are sent most often, are put together from parts serialised once (grants/token-response.ts)
 * instead of going through `JSON.stringify` per request. Anything else that serialises it gets the
 * same JSON.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** A JSON answer, built by the endpoint logic and written by `sendJson`. */
export interface JsonReply {
  status: number;
  /** The value to send as JSON, or its text already serialised. */
  body: unknown;
  headers?: Record<string, string>;
  /** Sent before the request body was read: end only once it is drained (see linger.ts). */
  drainBody?: boolean;
}

/** Headers of every token and tokeninfo answer (RFC 6749 §5.1): tokens are never cached. */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/** Every JSON answer: never sniffed as anything else. */
const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'x-content-type-options': 'nosniff',
};

/**
 * The fixed headers as `writeHead` takes them (name, value, name, value, …), the length left to
 * fill in: built once, not per answer, since this runs for every request and its cost shows in
 * the throughput benchmark.
 */
const PLAIN_HEAD = headerList(JSON_HEADERS);
const NO_STORE_HEAD = headerList({ ...JSON_HEADERS, ...NO_STORE });

function headerList(fixed: Record<string, string>): (string | number)[] {
  return [...Object.entries(fixed).flat(), 'content-length', 0];
}

/**
 * Writes a JSON answer: the fixed headers, then `extraHeaders`, then the reply's own (which win).
 * The turn's first answer leaves at once, later ones of the same turn of the event loop together
 * at its end (answer-batch.ts); one sent before its request's body was read leaves once that is
 * drained.
 */
export function sendJson(res: ServerResponse, reply: JsonReply, extraHeaders?: Record<string, string>): void {
  const text = reply.body instanceof JsonText ? reply.body.text : JSON.stringify(reply.body);
  const length = Buffer.byteLength(text);
  if (reply.headers === undefined && (extraHeaders === undefined || extraHeaders === NO_STORE)) {
    const head = extraHeaders === undefined ? PLAIN_HEAD : NO_STORE_HEAD;
    // Safe to reuse: writeHead has serialised the list before it returns.
    head[head.length - 1] = length;
    res.writeHead(reply.status, head);
  } else {
    const headers: Record<string, string | number> = { ...JSON_HEADERS, 'content-length': length };
    if (extraHeaders) Object.assign(headers, extraHeaders);
    if (reply.headers) Object.assign(headers, reply.headers);
    res.writeHead(reply.status, headers);
  }
  if (reply.drainBody) endAfterDrainingBody(res, text);
  else endBatched(res, text);
}
