import { expect } from 'vitest';

/** The error `promise` rejects with, checked to be a `type`; the test fails if it resolves. */
export async function rejectionOf<T>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => T,
): Promise<T> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as T;
  }
  throw new Error(`expected a ${type.name}`);
}
