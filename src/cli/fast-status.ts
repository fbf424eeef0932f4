/**
 * The launcher's answer to `tokencli status` (any of its flags, as light-argv.ts read them):
 * status's own run function without commander (light-run.ts), so the output, messages and exit
 * codes are the full CLI's, decided by the same code.
 */
import type { ParsedCommand } from './command-model/parse-argv.js';
import { run } from './commands/status.js';
import { statusCommand } from './commands/status-command.js';
import type { IO } from './io.js';
import { runLight } from './light-run.js';

export function answer(parsed: ParsedCommand, io?: IO): Promise<number> {
  return runLight(parsed, run, statusCommand, io);
}
