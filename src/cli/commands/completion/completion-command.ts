/** `tokencli completion`'s argument and examples (the run function is in completion.ts). */
import type { CommandDef } from '../../command-model/types.js';

export const completionCommand: CommandDef = {
  name: 'completion',
  run: async (program) => (await import('./completion.js')).runFor(program),
  description: 'print a shell completion script',
  clientGlobals: false,
  flags: [],
  arguments: [
    { name: 'shell', description: 'bash, zsh or fish', required: true, choices: ['bash', 'zsh', 'fish'] },
  ],
  examples: [
    'source <(tokencli completion bash)',
    'tokencli completion fish > ~/.config/fish/completions/tokencli.fish',
  ],
};
