/** `tokencli status`'s flags, help and examples (the run function is in status.ts). */
import type { CommandDef } from '../command-model/types.js';

export const statusCommand: CommandDef = {
  name: 'status',
  description: 'show each profile: base URL, email, token expiry, store; --check asks the service',
  flags: [
    {
      long: '--check',
      description: "ask the service about each profile's token (exit 0 only if all are usable)",
    },
    { long: '--json', description: 'print as JSON' },
  ],
  examples: ['tokencli status', 'tokencli status --json', 'tokencli status --check --profile ci'],
};
