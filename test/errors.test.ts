/**
 * A TokencliError made by another copy of src/errors.ts is still a TokencliError: the launcher's
 * light bundles each carry their own copy, and the keychain's client, a bundle of its own
 * (scripts/bundle.mjs), throws errors the answer that loaded it checks with `instanceof`. Only
 * TokencliError itself crosses copies; its subclasses are checked as usual.
 */
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { InputError, TokencliError, UsageError } from '../src/errors.js';

/** A second copy of the module, as another bundle carries it (a query makes it a module of its own). */
// @ts-expect-error: TypeScript knows the module by its path alone, without the query
const copy: typeof import('../src/errors.js') = await import('../src/errors.js?copy');

describe('TokencliError across copies of its module', () => {
  test('the test has two copies to compare', () => {
    expect(copy.TokencliError).not.toBe(TokencliError);
  });

  test("another copy's TokencliError, or a subclass of it, is a TokencliError", () => {
    const store = new copy.TokencliError('the OS keychain failed', { code: 'store' });
    expect(store instanceof TokencliError).toBe(true);
    expect(new copy.InputError('bad', 'store_unknown') instanceof TokencliError).toBe(true);
    expect(new TokencliError('x', { code: 'internal' }) instanceof copy.TokencliError).toBe(true);
  });

  test('subclasses are checked as usual', () => {
    const base = new copy.TokencliError('x', { code: 'usage' });
    expect(base instanceof InputError).toBe(false);
    expect(new copy.InputError('bad', 'store_unknown') instanceof InputError).toBe(false);
    expect(new InputError('bad', 'store_unknown') instanceof InputError).toBe(true);
    expect(new InputError('bad', 'store_unknown') instanceof UsageError).toBe(false);
    expect(new UsageError('bad') instanceof TokencliError).toBe(true);
  });

  test('anything else is not one', () => {
    for (const value of [new Error('x'), { code: 'store', message: 'x' }, null, undefined, 'x', 1]) {
      expect(value instanceof TokencliError).toBe(false);
    }
  });

  test('the mark shows nowhere: not among its keys, in its JSON or its inspection', () => {
    const error = new TokencliError('the OS keychain failed', { code: 'store', details: { why: 'locked' } });
    const mark = Object.getOwnPropertyDescriptor(error, Symbol.for('tokencli.TokencliError'));
    expect(mark).toMatchObject({ value: true, enumerable: false });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'TokencliError',
      code: 'store',
      details: { why: 'locked' },
    });
    expect(inspect(error)).not.toContain('tokencli.TokencliError');
  });
});
