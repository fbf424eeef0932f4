/**
 * When a request may be sent again (docs/contract.md §2.4): only where no request reached the service
 * (connection refused, DNS failure) or on 429 / 503 with a `Retry-After` of at most 10 s; at most
 * two retries; never for `authorization_code` (the caller passes `retry: false`: a code is valid
 * once, so a second attempt could only fail or, worse, race the first).
 */

import { isAsciiDigits } from '../text/ascii-digits.js';

/** Retries after the first attempt, so three attempts in all. */
export const MAX_RETRIES = 2;

/** A longer `Retry-After` is not waited for: the error is reported instead. */
export const MAX_RETRY_AFTER_MS = 10_000;

/** Statuses whose `Retry-After` is honoured (RFC 9110 §10.2.3, RFC 6585 §4). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Milliseconds a `Retry-After` value asks to wait: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
 * Undefined when absent or unreadable; a date in the past means "now" (0).
 */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (isAsciiDigits(text)) return Number(text) * 1000;
  // Only something shaped like an HTTP-date: Date.parse accepts much more (e.g. "1"), which must not count.
  if (!/^[A-Za-z]{3},? .*\d{2}:\d{2}:\d{2} (GMT|UTC)$/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** The wait before retry `n` (1-based) after a refused connection: 250 ms, then 500 ms. */
export function connectBackoffMs(retry: number): number {
  return 250 * 2 ** (retry - 1);
}
