import { describe, expect, test } from 'vitest';
import { validateServiceConfig } from '../../src/server/config-validation.js';
import { demoServiceConfig } from '../../src/server/index.js';
import { Registry } from '../../src/server/registry.js';

describe('Registry.user: spellings remembered', () => {
  test('answers the same for a spelling the second time as the first', () => {
    const registry = new Registry(validateServiceConfig(demoServiceConfig()));
    const demo = registry.user('demo@example.com');
    expect(demo?.email).toBe('demo@example.com');
    for (let i = 0; i < 2; i++) {
      expect(registry.user(' Demo@Example.COM\t')).toBe(demo);
      expect(registry.user('demo@example.com\u00a0')).toBeUndefined();
      expect(registry.user('nobody@example.com')).toBeUndefined();
    }
  });

  test('still looks spellings up once it remembers no more of them', () => {
    const registry = new Registry(validateServiceConfig(demoServiceConfig()));
    for (let i = 0; i < 1000; i++) expect(registry.user(`user${i}@example.com`)).toBeUndefined();
    const demo = registry.user('DEMO@example.com');
    expect(demo?.email).toBe('demo@example.com');
    expect(registry.user('DEMO@example.com')).toBe(demo);
    expect(registry.user('\u212aemo@example.com')).toBeUndefined();
  });
});
