import { expect, test } from 'vitest';
import { requiredInCi } from './ci-required.js';

test('a missing tool fails the run in CI and only there', () => {
  expect(() => requiredInCi('the openssl command is not installed', 'install it', { CI: 'true' })).toThrow(
    /the openssl command is not installed, and CI must run the tests that need it/,
  );
  expect(() => requiredInCi('the openssl command is not installed', 'install it', {})).not.toThrow();
  expect(() => requiredInCi(undefined, 'install it', { CI: 'true' })).not.toThrow();
});
