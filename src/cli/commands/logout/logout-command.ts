/** `tokencli logout`'s flags, help and examples (the run function is in logout.ts). */
import type { CommandDef } from '../../command-model/types.js';

export const logoutCommand: CommandDef = {
  name: 'logout',
  run: async () => (await import('./logout.js')).run,
  description: "remove the profile's stored tokens",
  flags: [{ long: '--purge', description: 'also remove the stored client secret' }],
  examples: ['tokencli logout', 'tokencli logout --profile ci --purge'],
};
