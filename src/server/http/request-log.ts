/**
 * One log line per request (docs/contract.md §3): method, path, status, duration. Never the query string
 * (codes, states and, from careless clients, secrets travel there), never a header or a body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { removeControlCharacters } from '../../text/sanitize.js';

/**
 * The path as logged. Paths of the service's endpoints are logged as they are; in any other path
 * a segment long enough to be a token is masked, in case a client put one there.
 */
export function loggedPath(path: string, known: boolean): string {
  if (known) return path;
  const masked = removeControlCharacters(path)
    .split('/')
    .map((segment) => (segment.length > 24 ? '…' : segment))
    .join('/');
  return masked.length > 120 ? `${masked.slice(0, 120)}…` : masked;
}

/** Logs the request once its answer is sent, or when the client gave up first. */
export function logRequest(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  log: (line: string) => void,
): void {
  const started = performance.now();
  // 'close' comes once per response, so a plain listener does (no once-wrapper per request).
  res.on('close', () => {
    const ms = (performance.now() - started).toFixed(1);
    const outcome = res.writableFinished ? String(res.statusCode) : `${res.statusCode} (client went away)`;
    log(`${req.method ?? '?'} ${path} ${outcome} ${ms}ms`);
  });
}
