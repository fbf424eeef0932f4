/** `tokencli sso`'s flags, help and examples (the run function is in sso.ts). */
import type { CommandDef } from '../../command-model/types.js';

export const ssoCommand: CommandDef = {
  name: 'sso',
  run: async () => (await import('./sso.js')).run,
  description: 'get a token with a signed SAML response or assertion (saml2-bearer grant)',
  flags: [
    { long: '--saml-response', value: '<file>', description: 'SAMLResponse XML or base64 ("-" = stdin)' },
    { long: '--saml-assertion', value: '<file>', description: 'SAML assertion XML or base64 ("-" = stdin)' },
    { long: '--sign-key', value: '<file>', description: 'PEM private key to sign the assertion with' },
    { long: '--sign-cert', value: '<file>', description: 'PEM certificate to name in the signature' },
    {
      long: '--assertion-for',
      value: '<email>',
      description: 'build a fresh assertion for this user (needs --sign-key)',
    },
    { long: '--issuer', value: '<uri>', description: 'issuer of a built assertion' },
    { long: '--audience', value: '<uri>', description: 'audience of a built assertion' },
    { long: '--client-secret-stdin', description: 'read the client secret from stdin' },
    { long: '--end-other-sessions', description: "end the user's other sessions (endOtherSessions=True)" },
    { long: '--no-store', description: 'alias of the global --store none: read and keep no token' },
    { long: '--json', description: 'print the token and its details as JSON' },
    { long: '--show-tokens', description: 'show the refresh token unmasked in the JSON' },
  ],
  examples: [
    'tokencli sso --saml-response response.xml',
    'tokencli sso --assertion-for demo@example.com --issuer https://idp.example --sign-key idp-key.pem',
  ],
};
