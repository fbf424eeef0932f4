/** `tokencli status`'s flags, help and examples (the run function is in status.ts). */
import type { CommandDef } from '../../command-model/types.js';

export const statusCommand: CommandDef = {
  name: 'status',
  run: async () => (await import('./status.js')).run,
  light: 'light-status',
  description: 'show each profile: base URL, email, token expiry, store; --check asks the service',
  readOnly: true,
  flags: [
    {
      long: '--check',
      description: "ask the service about each profile's token (exit 0 only if all are usable)",
    },
    { long: '--json', description: 'print as JSON' },
  ],
  notes:
    'Lists the profiles there are; never writes the config file. A profile whose store cannot be\nreached here (its keychain over SSH) shows its tokens and client secret as "unknown (store\nunreachable)", and the exit code is 4. With --check: 0 when every token is usable, else 3 if\nthe service refused one, 5 if it could not be reached, else 4 (also with no profile to check).',
  examples: ['tokencli status', 'tokencli status --json', 'tokencli status --check --profile ci'],
};
