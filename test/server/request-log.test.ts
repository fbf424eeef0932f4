import { describe, expect, test } from 'vitest';
import { formatMs } from '../../src/server/http/request-log.js';

describe('formatMs', () => {
  test('writes what toFixed(1) writes', () => {
    for (const ms of [
      0,
      0.04,
      0.06,
      0.1,
      0.94,
      0.96,
      1,
      9.94,
      9.96,
      99.99,
      12_345.67,
      86_400_000.3,
      1e9 + 0.3,
    ]) {
      expect(formatMs(ms), String(ms)).toBe(ms.toFixed(1));
    }
  });

  test('agrees with toFixed(1) on random durations', () => {
    for (let i = 0; i < 10_000; i++) {
      const ms = Math.random() * 10 ** Math.floor(Math.random() * 7);
      // Half a tenth, within floating-point error, may go either way (see formatMs).
      if (Math.abs(((ms * 10) % 1) - 0.5) < 1e-6) continue;
      expect(formatMs(ms), String(ms)).toBe(ms.toFixed(1));
    }
  });
});
