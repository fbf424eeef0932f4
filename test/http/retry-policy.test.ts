import { describe, expect, it } from 'vitest';
import {
  connectBackoffMs,
  MAX_RETRIES,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
} from '../../src/http/retry-policy.js';

const NOW = Date.parse('2030-01-02T03:04:05Z');

describe('retryAfterMs (RFC 9110 §10.2.3)', () => {
  it.each([
    ['0', 0],
    ['10', 10_000],
    [' 7 ', 7000],
    ['Wed, 02 Jan 2030 03:04:10 GMT', 5000],
    ['Wed, 02 Jan 2030 03:04:00 GMT', 0],
  ])('%j → %d ms', (value, ms) => expect(retryAfterMs(value, NOW)).toBe(ms));

  it.each([[undefined], [''], ['soon'], ['-1'], ['1.5'], ['1e3'], ['2030-01-02'], ['Wed, 02 Jan 2030']])(
    '%j is not a usable Retry-After',
    (value) => expect(retryAfterMs(value, NOW)).toBeUndefined(),
  );

  it('allows two retries, waits at most 10 s, and backs off 250 then 500 ms', () => {
    expect(MAX_RETRIES).toBe(2);
    expect(MAX_RETRY_AFTER_MS).toBe(10_000);
    expect([connectBackoffMs(1), connectBackoffMs(2)]).toStrictEqual([250, 500]);
  });
});
