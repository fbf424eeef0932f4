/** `tokencli login`'s flags, help and examples (the run function is in login.ts). */
import type { CommandDef } from '../command-model/types.js';

export const loginCommand: CommandDef = {
  name: 'login',
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
  examples: ['tokencli login', 'tokencli login --no-browser   # over SSH: open the URL elsewhere'],
};
