/**
 * `tokencli completion bash|zsh|fish`: completion scripts generated from the same command
 * definitions the parser uses (completion/model.ts), so they never drift from the real flags.
 */

import { bashScript } from '../completion/bash.js';
import { fishScript } from '../completion/fish.js';
import { completionModel } from '../completion/model.js';
import { zshScript } from '../completion/zsh.js';
import type { CommandContext } from '../context.js';
import { createDeps } from '../deps.js';
import { buildProgram } from '../program.js';

const generators = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export async function run(
  _options: Record<string, never>,
  ctx: CommandContext,
  shell: keyof typeof generators,
): Promise<void> {
  // commander has checked `shell` against the argument's choices (program.ts).
  const program = buildProgram(() => createDeps(ctx), { writeOut: () => {}, writeErr: () => {} });
  ctx.io.stdout.write(generators[shell](completionModel(program)));
}
