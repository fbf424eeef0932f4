/**
 * `tokencli completion bash|zsh|fish`: completion scripts generated from the command model
 * the parser is built from (completion/model.ts), so they never drift from the real flags.
 */

import type { ProgramDef } from '../../command-model/types.js';
import { bashScript } from '../../completion/bash.js';
import { fishScript } from '../../completion/fish.js';
import { completionModel } from '../../completion/model.js';
import { zshScript } from '../../completion/zsh.js';
import type { CommandContext } from '../../context.js';

const generators = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/** The run function for `program` (the definitions hand it over: importing it here would be a cycle). */
export const runFor =
  (program: ProgramDef) =>
  async (
    _options: Record<string, never>,
    ctx: CommandContext,
    shell: keyof typeof generators,
  ): Promise<void> => {
    // commander has checked `shell` against the argument's choices (commander/build-program.ts).
    ctx.io.stdout.write(generators[shell](completionModel(program)));
  };
