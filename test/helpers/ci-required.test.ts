import { expect, test } from 'vitest';
import { partsRequired, requiredInCi } from './ci-required.js';

test('a missing tool fails the run in CI on Linux and only there', () => {
  expect(() =>
    requiredInCi('the openssl command is not installed', 'install it', { CI: 'true' }, 'linux'),
  ).toThrow(/the openssl command is not installed, and CI must run the tests that need it/);
  expect(() => requiredInCi('the openssl command is not installed', 'install it', {}, 'linux')).not.toThrow();
  expect(() => requiredInCi(undefined, 'install it', { CI: 'true' }, 'linux')).not.toThrow();
  // The CI workflow's macOS and Windows jobs lack the Linux-only parts: their tests skip there.
  expect(() => requiredInCi('no Secret Service', 'install it', { CI: 'true' }, 'darwin')).not.toThrow();
  expect(() => requiredInCi('no Secret Service', 'install it', { CI: 'true' }, 'win32')).not.toThrow();
  expect(partsRequired({ CI: 'true' }, 'linux')).toBe(true);
  expect(partsRequired({}, 'linux')).toBe(false);
  expect(partsRequired({ CI: 'true' }, 'darwin')).toBe(false);
});
