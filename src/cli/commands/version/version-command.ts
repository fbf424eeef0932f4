/** `tokencli version`: the version, as `--version` prints it (gh and kubectl users type it so). */
import type { CommandDef } from '../../command-model/types.js';

export const versionCommand: CommandDef = {
  name: 'version',
  run: async () => (await import('./version.js')).version,
  description: 'print the version (as --version does)',
  // The launcher answers it as it answers --version (launcher/parse-argv.ts).
  clientGlobals: false,
  flags: [],
  examples: ['tokencli version'],
};
