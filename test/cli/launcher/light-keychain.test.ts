/**
 * The keychain's client is a light bundle of its own (src/cli/launcher/light-keychain.ts,
 * scripts/bundle.mjs): every light answer that opens a store imports it on demand through the
 * launcher, and carries none of its code; a cached token from the credentials file never loads it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const BUNDLES = resolve(import.meta.dirname, '../../../dist/cli-bundle');
const read = (name: string) => readFileSync(join(BUNDLES, name), 'utf8');

/** Code of the D-Bus client: the Secret Service's interface name, the connection class. */
const DBUS_CLIENT = ['"org.freedesktop.Secret.Service"', 'var DbusConnection = class'];
const IMPORT = '__import("tokencli:light-keychain")';

describe('the light bundles and the keychain client', () => {
  const answers = readdirSync(BUNDLES).filter(
    (name) => name.startsWith('light-') && name.endsWith('.cjs') && name !== 'light-keychain.cjs',
  );

  test('light-keychain.cjs carries the D-Bus client, the keychain store and the entries it keeps', () => {
    const bundle = read('light-keychain.cjs');
    for (const code of DBUS_CLIENT) expect(bundle).toContain(code);
    for (const name of [
      'KeychainStore',
      'SecretServiceEntries',
      'NativeKeychainEntries',
      'openSecretService',
    ])
      expect(bundle).toContain(`${name}: () => ${name}`);
  });

  test('each light answer that opens a store imports it and carries none of it', () => {
    const opening = answers.filter((name) => read(name).includes('async function openStore('));
    expect(opening.sort()).toEqual([
      'light-exec.cjs',
      'light-info.cjs',
      'light-profile.cjs',
      'light-status.cjs',
      'light-token.cjs',
    ]);
    for (const name of answers) {
      const bundle = read(name);
      for (const code of DBUS_CLIENT) expect(bundle, name).not.toContain(code);
      if (opening.includes(name)) expect(bundle, name).toContain(IMPORT);
    }
  });
});
