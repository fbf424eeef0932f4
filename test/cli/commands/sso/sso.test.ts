/**
 * `tokencli sso`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/sso/sso-command.ts → the typed options and operands).
 */
import { describe, expect, test } from 'vitest';
import { NO_GLOBALS, recordRun } from '../record-run.js';

describe('sso: options', () => {
  test("['sso']", async () => {
    expect(await recordRun(['sso'])).toEqual({
      path: 'sso',
      globals: NO_GLOBALS,
      options: { store: true },
      operands: [],
    });
  });

  test("['sso', '--saml-response', 'r.xml', '--no-store', '--json']", async () => {
    expect(await recordRun(['sso', '--saml-response', 'r.xml', '--no-store', '--json'])).toEqual({
      path: 'sso',
      globals: NO_GLOBALS,
      options: { store: false, samlResponse: 'r.xml', json: true },
      operands: [],
    });
  });

  test("['sso', '--assertion-for', 'a@example.com', '--issuer', 'https://idp', '--audience', 'https://sp', '--sign-key', 'k.pem', '--sign-cert', 'c.pem', '--saml-assertion', '-', '--client-secret-stdin', '--end-other-sessions', '--show-tokens']", async () => {
    expect(
      await recordRun([
        'sso',
        '--assertion-for',
        'a@example.com',
        '--issuer',
        'https://idp',
        '--audience',
        'https://sp',
        '--sign-key',
        'k.pem',
        '--sign-cert',
        'c.pem',
        '--saml-assertion',
        '-',
        '--client-secret-stdin',
        '--end-other-sessions',
        '--show-tokens',
      ]),
    ).toEqual({
      path: 'sso',
      globals: NO_GLOBALS,
      options: {
        store: true,
        assertionFor: 'a@example.com',
        issuer: 'https://idp',
        audience: 'https://sp',
        signKey: 'k.pem',
        signCert: 'c.pem',
        samlAssertion: '-',
        clientSecretStdin: true,
        endOtherSessions: true,
        showTokens: true,
      },
      operands: [],
    });
  });
});
