/** `tokencli profile`'s subcommands, flags and examples (the run functions are in profile.ts). */
import type { ArgumentDef, CommandDef } from '../../command-model/types.js';

const profileName = (required: boolean): ArgumentDef => ({
  name: 'name',
  description: 'profile name',
  required,
  complete: 'profile',
});

export const profileCommand: CommandDef = {
  name: 'profile',
  description: 'list, switch, show and remove profiles',
  flags: [],
  examples: [
    'tokencli profile list',
    'tokencli profile use work',
    'tokencli profile show',
    'tokencli profile remove old --yes',
  ],
  subcommands: [
    {
      name: 'list',
      run: async () => (await import('./profile.js')).list,
      light: 'light-profile',
      description: 'every profile in the config file; * marks the active one',
      readOnly: true,
      flags: [{ long: '--json', description: 'print as JSON' }],
      examples: ['tokencli profile list', 'tokencli profile list --json'],
    },
    {
      name: 'use',
      run: async () => (await import('./profile.js')).use,
      description: 'make a profile the active one (saved in the config file)',
      arguments: [profileName(true)],
      flags: [],
      examples: ['tokencli profile use work', 'tokencli profile use default'],
    },
    {
      name: 'show',
      run: async () => (await import('./profile.js')).show,
      light: 'light-profile',
      description: "a profile's settings, store and token state (default: the current one)",
      readOnly: true,
      arguments: [profileName(false)],
      flags: [{ long: '--json', description: 'print as JSON' }],
      examples: ['tokencli profile show', 'tokencli profile show work --json'],
    },
    {
      name: 'remove',
      run: async () => (await import('./profile.js')).remove,
      description:
        'remove a profile: its settings, tokens and client secret, from every store; asks on a terminal (no: nothing removed, exit 0), else needs --yes; removing the active profile makes "default" active',
      arguments: [profileName(true)],
      flags: [{ long: '--yes', description: 'do not ask for confirmation' }],
      examples: ['tokencli profile remove old', 'tokencli profile remove old --yes'],
    },
  ],
};
