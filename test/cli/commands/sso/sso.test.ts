/**
 * `tokencli sso`'s option parsing and defaults, in-process against a recorded run function
 * (argv → commander, built from src/cli/commands/sso/sso-command.ts → the typed options and operands).
 */
import { describe } from 'vitest';
import { testRecordedRuns } from '../record-run.js';

describe('sso: options', () => {
  testRecordedRuns([
    [['sso'], { path: 'sso', options: { store: true }, operands: [] }],
    [
      ['sso', '--saml-response', 'r.xml', '--no-store', '--json'],
      {
        path: 'sso',
        options: { store: false, samlResponse: 'r.xml', json: true },
        operands: [],
        globals: { store: 'none' },
      },
    ],
    [
      [
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
      ],
      {
        path: 'sso',
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
      },
    ],
  ]);
});
