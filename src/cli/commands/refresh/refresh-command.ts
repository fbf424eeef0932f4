/** `tokencli refresh`'s flags, help and examples (the run function is in refresh.ts). */
import type { CommandDef } from '../../command-model/types.js';

export const refreshCommand: CommandDef = {
  name: 'refresh',
  run: async () => (await import('./refresh.js')).run,
  description: 'exchange the stored refresh token now',
  flags: [
    { long: '--client-secret-stdin', description: 'read the client secret from stdin' },
    { long: '--end-other-sessions', description: "end the user's other sessions (endOtherSessions=True)" },
    { long: '--json', description: 'print the new token and its details as JSON' },
    { long: '--show-tokens', description: 'show the refresh token unmasked in the JSON' },
  ],
  examples: ['tokencli refresh', 'tokencli refresh --json --profile work'],
};
