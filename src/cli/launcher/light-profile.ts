/**
 * The launcher's answer to `tokencli profile list` and `profile show [NAME]` (any of their flags,
 * as light-argv.ts read them): their own run functions without commander (light-run.ts), so the
 * output, messages and exit codes are the full CLI's, decided by the same code.
 */

import { list, show } from '../commands/profile/profile.js';
import { profileCommand } from '../commands/profile/profile-command.js';
import type { IO } from '../input/io.js';
import type { ParsedCommand } from './parse-argv.js';
import { type RunFunction, runLight } from './run-light.js';

const RUN_FUNCTIONS: Readonly<Record<string, RunFunction>> = { 'profile list': list, 'profile show': show };

export function answer(parsed: ParsedCommand, io?: IO): Promise<number | false> {
  const run = Object.hasOwn(RUN_FUNCTIONS, parsed.path) ? RUN_FUNCTIONS[parsed.path] : undefined;
  const def = profileCommand.subcommands?.find((command) => `profile ${command.name}` === parsed.path);
  if (!run || !def) return Promise.resolve(false);
  return runLight(parsed, run, def, io);
}
