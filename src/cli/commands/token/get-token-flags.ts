/**
 * The flags `token` and `exec` share: both obtain a token the same way (get-token.ts), so they
 * take the same flags.
 */
import type { FlagDef } from '../../command-model/types.js';

export const GET_TOKEN_FLAGS: readonly FlagDef[] = [
  {
    long: '--email',
    value: '<email>',
    description:
      "user email for the client-credentials grant (env TOKENCLI_EMAIL; else the profile's, then the stored token's)",
  },
  { long: '--password-stdin', description: 'read the password from stdin (or env TOKENCLI_PASSWORD)' },
  { long: '--client-secret-stdin', description: 'read the client secret from stdin' },
  { long: '--force', description: 'ignore the cached token' },
  {
    long: '--min-ttl',
    value: '<seconds>',
    description:
      "minimum remaining lifetime of a cached token; one as long as a token's whole life or longer counts as half that life",
    default: '60',
  },
  { long: '--end-other-sessions', description: "end the user's other sessions (endOtherSessions=True)" },
  { long: '--no-store', description: 'do not store the new token' },
];
