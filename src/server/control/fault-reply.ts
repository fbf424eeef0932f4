/**
 * The answers an injected fault gives, written the way the real failures arrive: a reverse
 * proxy's HTML page, an empty body, the platform's own 017/018 bodies, RFC 6749 §5.2 JSON.
 */
import { type ServerResponse, STATUS_CODES } from 'node:http';
import { invalidCredentialsError, sessionConflictError } from '../../protocol/error-bodies.js';
import type { FaultSpec } from './faults.js';

/** A fault with nothing but a delay answers normally, only late. */
export function replacesAnswer(spec: FaultSpec): boolean {
  return (
    spec.status !== undefined ||
    spec.body !== undefined ||
    spec.subcode !== undefined ||
    spec.retry_after !== undefined ||
    spec.delay_ms === undefined
  );
}

function defaultStatus(spec: FaultSpec): number {
  if (spec.subcode !== undefined) return 403;
  if (spec.body === 'html') return 502;
  if (typeof spec.body === 'object') return 400;
  return 503;
}

/** The RFC 6749 §5.2 error code closest to a status, for `body: "json"`. */
function oauthCodeFor(status: number): string {
  if (status === 503 || status === 429) return 'temporarily_unavailable';
  if (status >= 500) return 'server_error';
  if (status === 401) return 'invalid_client';
  if (status === 403) return 'access_denied';
  return 'invalid_request';
}

/** Writes the fault's answer. */
export function sendFault(res: ServerResponse, spec: FaultSpec): void {
  const status = spec.status ?? defaultStatus(spec);
  const reason = STATUS_CODES[status] ?? 'Error';
  const headers: Record<string, string | number> = { 'cache-control': 'no-store' };
  if (spec.retry_after !== undefined) headers['retry-after'] = String(spec.retry_after);
  let text = '';
  if (spec.body === 'html') {
    headers['content-type'] = 'text/html';
    text = `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  } else if (spec.body !== 'empty') {
    let body: unknown;
    if (spec.subcode === '017') body = invalidCredentialsError().body;
    else if (spec.subcode === '018') body = sessionConflictError().body;
    else if (typeof spec.body === 'object') body = spec.body;
    else body = { error: oauthCodeFor(status), error_description: `${status} ${reason} (injected fault)` };
    headers['content-type'] = 'application/json; charset=utf-8';
    text = JSON.stringify(body);
  }
  headers['content-length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}
