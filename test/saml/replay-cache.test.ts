import { describe, expect, it } from 'vitest';
import { ReplayCache } from '../../src/saml/replay-cache.js';

describe('ReplayCache', () => {
  it('reports an ID as seen only from its second use', () => {
    const cache = new ReplayCache({ now: () => 1000 });
    expect(cache.seen('_a', 5000)).toBe(false);
    expect(cache.seen('_a', 5000)).toBe(true);
    expect(cache.seen('_b', 5000)).toBe(false);
  });

  it('forgets IDs once their assertions have expired, so memory stays bounded', () => {
    let now = 1000;
    const cache = new ReplayCache({ now: () => now });
    for (let i = 0; i < 100; i++) cache.seen(`_${i}`, 2000);
    expect(cache.size).toBe(100);
    now = 5000;
    expect(cache.seen('_new', 9000)).toBe(false);
    expect(cache.size).toBe(1);
    // An expired ID may come back: its assertion is refused as expired anyway.
    expect(cache.seen('_0', 9000)).toBe(false);
  });

  it('refuses new IDs when full of unexpired ones rather than forgetting one', () => {
    const cache = new ReplayCache({ now: () => 1000, maxEntries: 2 });
    expect(cache.seen('_a', 9000)).toBe(false);
    expect(cache.seen('_b', 9000)).toBe(false);
    expect(cache.seen('_c', 9000)).toBe(true);
    expect(cache.seen('_a', 9000)).toBe(true);
  });
});
