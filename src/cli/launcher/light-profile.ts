/**
 * The launcher's answer to `tokencli profile list` and `profile show [NAME]` (any of their flags,
 * as light-argv.ts read them): their own run functions without commander (run-light.ts), so the
 * output, messages and exit codes are the full CLI's, decided by the same code.
 */
import type { RunFunction } from '../command-model/types.js';
import * as profile from '../commands/profile/profile.js';
import { profileCommand } from '../commands/profile/profile-command.js';
import type { IO } from '../input/io.js';
import type { ParsedCommand } from './parse-argv.js';
import { runLight } from './run-light.js';

export function answer(parsed: ParsedCommand, io?: IO): Promise<number | false> {
  // The subcommand this answer is named for; its run function is profile.ts's export of its name.
  const def = profileCommand.subcommands?.find(
    (command) => `profile ${command.name}` === parsed.path && command.light === 'light-profile',
  );
  const run = def && (profile as Record<string, RunFunction | undefined>)[def.name];
  if (!def || !run) return Promise.resolve(false);
  return runLight(parsed, run, def, io);
}
