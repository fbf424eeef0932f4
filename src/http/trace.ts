/**
 * The `--verbose` HTTP trace (docs/contract.md §2.2): one line per request and one per response, every
 * secret redacted (by name and by value, see redact.ts), control characters removed, long bodies
 * shortened. The caller decides where lines go (stderr); this module only formats them.
 */
import { sanitizeText } from '../text/sanitize.js';
import { redactForm, redactHeaders, redactText, redactUrl, scrubKnownSecrets } from './redact.js';

/** Bodies in the trace are shortened to this many characters. */
const TRACE_BODY_CHARS = 2000;

type Headers = Record<string, string | string[] | number | undefined>;

export interface TracedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body?: string | undefined;
  attempt: number;
}

export function requestLine(req: TracedRequest, secrets: readonly string[]): string {
  const parts = [
    `http > ${req.method} ${redactUrl(req.url)}`,
    req.attempt > 1 ? `(attempt ${req.attempt})` : '',
    `headers=${JSON.stringify(redactHeaders(req.headers))}`,
    req.body === undefined ? '' : `body=${shorten(scrubKnownSecrets(redactForm(req.body), secrets))}`,
  ];
  return finish(parts, secrets);
}

export function responseLine(
  method: string,
  url: URL,
  status: number,
  durationMs: number,
  headers: Headers,
  body: string,
  secrets: readonly string[],
): string {
  const parts = [
    `http < ${status} ${method} ${redactUrl(url)} in ${Math.round(durationMs)} ms`,
    `headers=${JSON.stringify(redactHeaders(headers))}`,
    `body=${shorten(redactText(body, secrets))}`,
  ];
  return finish(parts, secrets);
}

/** A line about a failure or a retry: `http ! …`. */
export function noteLine(text: string, secrets: readonly string[]): string {
  return finish([`http ! ${text}`], secrets);
}

function finish(parts: string[], secrets: readonly string[]): string {
  return sanitizeText(scrubKnownSecrets(parts.filter(Boolean).join(' '), secrets));
}

function shorten(text: string): string {
  if (text.length <= TRACE_BODY_CHARS) return text;
  return `${text.slice(0, TRACE_BODY_CHARS)}… (${text.length - TRACE_BODY_CHARS} more characters)`;
}
