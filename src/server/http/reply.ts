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

/** RFC 6749 §5.2 error: `{"error": code, "error_description": text}`. */
export function oauthError(status: number, error: string, description: string): JsonReply {
  return { status, body: { error, error_description: description } };
}

// Control characters and overlong values are dropped from echoed input, so a hostile value cannot
// repaint a terminal that prints the error or bloat the answer.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
export function sanitizeEcho(value: string, max = 200): string {
  const clean = value.replace(CONTROLS, '');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** The platform's answer to a missing or unknown client id (SPEC.md §1), the id echoed sanitised. */
export function consumerKeyError(clientId: string): JsonReply {
  return {
    status: 400,
    body: {
      ErrorCode: 'invalid_request',
      Error: `invalid or null consumer key: ${sanitizeEcho(clientId)}`,
      Hint: "please ensure that you are passing the consumer key like so: 'client_id={consumer_key}'",
    },
  };
}

/** The platform's answer to bad user credentials: 403 subcode 017 (SPEC.md §1). */
export function invalidCredentialsError(): JsonReply {
  return {
    status: 403,
    body: {
      error: {
        code: 403,
        message: 'Credential provided is invalid. or there was problem with your account.',
        subcode: '017',
      },
    },
  };
}

/** The platform's concurrent-session refusal: 403 subcode 018 (SPEC.md §1 rule 10). */
export function sessionConflictError(): JsonReply {
  return {
    status: 403,
    body: {
      error: {
        code: 403,
        message: 'Your session has been logged out as the same user is logged in elsewhere.',
        subcode: '018',
      },
    },
  };
}
