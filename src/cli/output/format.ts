/** Small text renderings shared by the commands' human-readable output. */
import { formatDuration } from '../../text/duration.js';

/** "14:03" today, else "2026-12-21 14:03", in local time. */
export function formatClock(at: Date, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  const sameDay = at.toDateString() === now.toDateString();
  return sameDay ? time : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

/** "in 58m 12s (at 14:03)" or "expired 3m ago (at 13:01)". */
export function describeExpiry(expiresAt: Date, now: Date): string {
  const seconds = (expiresAt.getTime() - now.getTime()) / 1000;
  const clock = formatClock(expiresAt, now);
  return seconds > 0
    ? `in ${formatDuration(seconds)} (at ${clock})`
    : `expired ${formatDuration(-seconds)} ago (at ${clock})`;
}

/** "expires in 58m 12s (at 14:03)" or "expired 3m ago (at 13:01)". */
export function describeExpiryFully(expiresAt: Date, now: Date): string {
  const text = describeExpiry(expiresAt, now);
  return text.startsWith('in ') ? `expires ${text}` : text;
}

/**
 * The stored access token in one phrase: "refused by the service 3m ago (at 14:03): revoked or cut
 * short, not used again" once dropped (src/session/refused-token.ts), else its expiry.
 */
export function describeAccessToken(
  expiresAt: string,
  refusedAt: string | null | undefined,
  now: Date,
): string {
  if (refusedAt === null || refusedAt === undefined) return describeExpiryFully(new Date(expiresAt), now);
  const at = new Date(refusedAt);
  const ago = formatDuration((now.getTime() - at.getTime()) / 1000);
  return `refused by the service ${ago} ago (at ${formatClock(at, now)}): revoked or cut short, not used again`;
}

/** Tokens are shown as `abcd…wxyz` unless `--show-tokens`; short values are hidden entirely. */
export function maskToken(token: string): string {
  if (token.length < 16) return '…';
  return `${token.slice(0, 4)}…${token.slice(-4)}`;
}

/** Seconds from now until an ISO time, floored; undefined stays undefined. */
export function secondsUntil(iso: string | undefined, now: Date): number | undefined {
  if (iso === undefined) return undefined;
  return Math.floor((Date.parse(iso) - now.getTime()) / 1000);
}
