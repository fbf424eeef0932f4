/**
 * The launcher's answer to `tokencli status` (any of its flags, as light-argv.ts read them):
 * status's own run function without commander (run-light.ts), so the output, messages and exit
 * codes are the full CLI's, decided by the same code.
 */

import { run } from '../commands/status/status.js';
import { statusCommand } from '../commands/status/status-command.js';
import type { IO } from '../input/io.js';
import type { ParsedCommand } from './parse-argv.js';
import { runLight } from './run-light.js';

export function answer(parsed: ParsedCommand, io?: IO): Promise<number> {
  return runLight(parsed, run, statusCommand, io);
}
