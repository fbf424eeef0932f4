/**
 * The launcher's light answer to `tokencli exec [--min-ttl S] -- CMD [ARGS…]` (as light-argv.ts
 * parsed it) when the profile's cached token is fresh: the same token the full `exec` would take
 * from the cache (light-token.ts: the session's cached-token step), and CMD run by the very
 * code the full command runs it with (exec-child.ts: its environment, signals passed on, its exit
 * status, 127/126 when it cannot be started). Every other case is declined before CMD starts,
 * with nothing printed — a flag that declines a cached answer (FlagDef.declinesCachedAnswer), an
 * empty CMD (commandToRun, exec's own check), no fresh token — and the full CLI runs.
 */

import { ExitCode } from '../../errors.js';
import { commandToRun } from '../commands/exec/command-line.js';
import type { ExecOptions } from '../commands/exec/exec.js';
import { runWithToken } from '../commands/exec/exec-child.js';
import type { GlobalOptions } from '../context.js';
import { processIO } from '../input/io.js';
import { CommandExit } from '../output/command-exit.js';
import { interruptedLine, writeStderr } from '../output/prefixes.js';
import type { LightCommand } from './light-argv.js';
import { cachedToken, lightContext } from './light-token.js';

/**
 * CMD's exit status once it ran (or 127/126, said on stderr, when it could not be started), or
 * false, having printed and started nothing, for the full CLI to run.
 */
export async function answer(plan: LightCommand, io = processIO()): Promise<number | false> {
  const ctx = lightContext(plan, io);
  if (!ctx) return false;
  let command: string;
  let args: string[];
  try {
    [command, args] = commandToRun((plan.operands[0] ?? []) as string[]);
  } catch {
    // No command: the full CLI says so, as it does.
    return false;
  }
  const cached = await cachedToken(ctx, (plan.options as unknown as ExecOptions).minTtl);
  if (!cached) return false;
  // The way here may not have turned the event loop once: a Ctrl-C typed meanwhile is still
  // pending. One turn lets the launcher's handler end the run (`interrupted`, below) before CMD
  // starts and the signals become CMD's.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    return await runWithToken(command, args, cached.record, cached.service, ctx);
  } catch (error) {
    if (error instanceof CommandExit) return error.exitCode;
    throw error;
  }
}

/**
 * Ctrl-C on an `exec` line before CMD starts, while no handler of the run's own is installed
 * (bin/tokencli.js installs the one that calls this from its start, for exec lines only, so a
 * cached `token` pays nothing): the run ends as an interrupted run ends (run-reported.ts), said
 * and exit 130, instead of being killed by the signal. Once CMD runs, CMD has the signals.
 */
export function interrupted(args: readonly string[], io = processIO()): never {
  const end = args.indexOf('--');
  const own = end < 0 ? args : args.slice(0, end);
  writeStderr({ io, globals: { color: !own.includes('--no-color') } as GlobalOptions }, interruptedLine(io));
  process.exit(ExitCode.interrupted);
}
