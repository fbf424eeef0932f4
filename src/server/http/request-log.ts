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

/**
 * Logs the request once its answer is sent, or when the client gave up first: then the status is
 * the one sent, or `-` when the client left before any answer (node's default 200 was never sent).
 */
export function logRequest(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  log: (line: string) => void,
): void {
  const started = performance.now();
  // 'close' comes once per response, so a plain listener does (no once-wrapper per request).
  res.on('close', () => {
    const outcome = res.writableFinished
      ? res.statusCode
      : `${res.headersSent ? res.statusCode : '-'} (client went away)`;
    log(`${req.method ?? '?'} ${path} ${outcome} ${formatMs(performance.now() - started)}ms`);
  });
}

/**
 * A duration as `toFixed(1)` writes it (`0.0`, `12.3`), at a third of its cost: this runs for
 * every request. For durations from 0 up to days; a duration within a rounding error of half a
 * tenth may round the other way, which no reader of the log can tell.
 */
export function formatMs(ms: number): string {
  const tenths = Math.round(ms * 10);
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
}
