import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/memory-store.js';
import { openStore } from '../../src/store/open-store.js';
import { described } from '../helpers/described.js';
import { sampleRecord } from './records.js';

describe('the none store', () => {
  it('is what openStore gives for kind none, without warnings or files', async () => {
    const warnings: string[] = [];
    const store = await openStore({
      kind: 'none',
      configDir: '/nonexistent/never-created',
      warn: (l) => warnings.push(l),
    });
    expect(store).toBeInstanceOf(MemoryStore);
    expect(store).toMatchObject({ kind: 'none', location: 'memory (this run only)' });
    await store.setTokens('default', sampleRecord());
    expect(warnings).toEqual([]);
  });

  it('keeps tokens and secrets for this run only, as copies', async () => {
    const store = new MemoryStore();
    const record = sampleRecord();
    await store.setTokens('b', record);
    await store.setTokens('a', sampleRecord({ email: 'a@example.com' }));
    await store.setClientSecret('b', 'secret');
    record.access_token = 'changed by the caller';
    expect(await store.getTokens('b')).toEqual(sampleRecord());
    expect(await store.getClientSecret('b')).toBe('secret');
    expect(await store.listProfiles()).toEqual(['a', 'b']);
    await store.deleteTokens('b');
    await store.deleteClientSecret('b');
    expect(await store.getTokens('b')).toBeUndefined();
    expect(await store.getClientSecret('b')).toBeUndefined();
    expect(await store.listProfiles()).toEqual(['a']);
    expect(await new MemoryStore().getTokens('a')).toBeUndefined();
  });
});

describe('openStore', () => {
  it('refuses a kind that is not a store (exit 2)', async () => {
    const error = await openStore({
      kind: 'vault' as never,
      configDir: '/nonexistent',
      warn: () => {},
    }).catch((e: unknown) => e);
    expect(described(error)).toMatchObject({
      code: 'usage',
      message: 'unknown credential store "vault"',
      hint: 'use --store keychain, file or none',
    });
  });
});
