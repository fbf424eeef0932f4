/** `tokencli login`'s flags, help and examples (the run function is in login.ts). */
import type { CommandDef } from '../../command-model/types.js';

export const loginCommand: CommandDef = {
  name: 'login',
  run: async () => (await import('./login.js')).run,
  description: 'log in through the browser (authorization code + PKCE) and store the tokens',
  flags: [
    {
      long: '--redirect-uri',
      value: '<uri>',
      description: 'loopback redirect URI (default http://127.0.0.1:8765/callback; port 0 = any)',
    },
    { long: '--no-browser', description: 'print the URL instead of opening a browser' },
    {
      long: '--scope',
      value: '<scope>',
      description: 'scope to ask for (some servers deny a login that asks for none, e.g. --scope openid)',
    },
    { long: '--end-other-sessions', description: "end the user's other sessions (endOtherSessions=True)" },
    {
      long: '--timeout-login',
      value: '<seconds>',
      description: 'how long to wait for the browser',
      default: '300',
    },
    { long: '--client-secret-stdin', description: 'read the client secret from stdin' },
    { long: '--json', description: 'print the stored record as JSON' },
    { long: '--show-tokens', description: 'show the refresh token unmasked in the JSON' },
  ],
  notes: `Before the URL is shown or opened, tokencli requests it once: a service that cannot be reached
(exit 5), a client id or redirect URI it does not know (exit 3) or a base URL without the login
page (exit 5) ends the login at once; an answer a browser may still get past is a warning.
The tokens are stored for the profile, and the last line says so. A run whose --base-url or
--client-id differs from the profile's stores nothing and says why (log in with --profile NAME,
or point the profile at the service with configure). A client secret from TOKENCLI_CLIENT_SECRET
or --client-secret-stdin is not stored: when the profile's store holds none, login warns that
renewing the tokens later needs it again (configure stores it).`,
  examples: ['tokencli login', 'tokencli login --no-browser   # over SSH: open the URL elsewhere'],
};
