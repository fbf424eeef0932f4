/** `tokencli info`'s flags, help and examples (the run function is in info.ts). */
import type { CommandDef } from '../../command-model/types.js';

export const infoCommand: CommandDef = {
  name: 'info',
  run: async () => (await import('./info.js')).run,
  light: 'light-info',
  description: 'show the information of the stored (or given) access token',
  readOnly: true,
  flags: [
    { long: '--token-stdin', description: 'read the access token from stdin' },
    { long: '--show-tokens', description: 'show tokens unmasked' },
    { long: '--json', description: 'print every field as JSON' },
  ],
  notes: `A stored token the service refuses (revoked, cut short) is dropped: kept marked refused, with
its refresh token and email, so \`tokencli token\` renews it; until then info reports it refused
(exit 3) without sending it again.`,
  examples: [
    'tokencli info',
    'tokencli info --json | jq -r .email',
    'tokencli token | tokencli info --token-stdin',
  ],
};
