/**
 * `tokencli exec`: its flags (token's, get-token-flags.ts), help and examples, its run function
 * (exec.ts, loaded when it runs) and its light answer (launcher/light-exec.ts); both check the
 * command line with command-line.ts.
 */
import type { CommandDef } from '../../command-model/types.js';
import { GET_TOKEN_FLAGS } from '../token/get-token-flags.js';

export const execCommand: CommandDef = {
  name: 'exec',
  run: async () => (await import('./exec.js')).run,
  light: 'light-exec',
  description: 'run a command with a valid access token in its environment (TOKENCLI_ACCESS_TOKEN)',
  arguments: [
    {
      name: 'command',
      description: 'the command and its arguments, after --',
      required: true,
      variadic: true,
    },
  ],
  flags: GET_TOKEN_FLAGS,
  notes: `The command runs without a shell, with TOKENCLI_ACCESS_TOKEN, TOKENCLI_TOKEN_EXPIRES_AT,
TOKENCLI_BASE_URL and TOKENCLI_CLIENT_ID in its environment and without TOKENCLI_PASSWORD and
TOKENCLI_CLIENT_SECRET; signals are passed on to it. tokencli exits with its exit status
(128 + n when signal n ended it). tokencli's own failures print "error: …" on stderr and exit
2-6; a command that is not found exits 127, one that cannot be run 126.`,
  examples: [
    'tokencli exec -- sh -c \'curl -fsS -H "Authorization: Bearer $TOKENCLI_ACCESS_TOKEN" "$TOKENCLI_BASE_URL/v2/oauth/tokeninfo?client_id=$TOKENCLI_CLIENT_ID"\'',
    'tokencli exec --min-ttl 1800 -- ./half-hour-job.sh',
    'tokencli --profile work exec -- env',
  ],
};
