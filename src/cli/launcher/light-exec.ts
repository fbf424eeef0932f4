/**
 * The launcher's light answer to `tokencli exec [--min-ttl S] -- CMD [ARGS…]` (as light-argv.ts
 * parsed it) when the profile's cached token is fresh: the same token the full `exec` would take
 * from the cache (fast-token.ts, with the functions the full CLI uses), and CMD run by the very
 * code the full command runs it with (exec-child.ts: its environment, signals passed on, its exit
 * status, 127/126 when it cannot be started). Every other case is declined before CMD starts,
 * with nothing printed — a flag that may read stdin or renew (`--force`, `--email`, the `-stdin`
 * flags, `--end-other-sessions`), `--verbose`, an empty CMD, no fresh token — and the full CLI runs.
 */

import { runWithToken } from '../commands/exec/exec-child.js';
import { processIO } from '../input/io.js';
import { CommandExit } from '../output/command-exit.js';
import { cachedToken, lightContext } from './light-token.js';
import type { ParsedCommand } from './parse-argv.js';

/** `--no-store` changes only what a renewal would do; the cached answer is the same. */
const LIGHT_OPTIONS = new Set(['minTtl', 'store']);

/**
 * CMD's exit status once it ran (or 127/126, said on stderr, when it could not be started), or
 * false, having printed and started nothing, for the full CLI to run.
 */
export async function answer(parsed: ParsedCommand, io = processIO()): Promise<number | false> {
  const { options, operands } = parsed;
  const ctx = lightContext(parsed, LIGHT_OPTIONS, io);
  const [command, ...args] = operands;
  // No command: the full CLI says so, as it does.
  if (!ctx || command === undefined || command === '') return false;
  const minTtl = typeof options.minTtl === 'string' ? options.minTtl : undefined;
  const cached = await cachedToken(ctx, minTtl);
  if (!cached) return false;
  try {
    return await runWithToken(command, args, cached.record, cached.service, ctx);
  } catch (error) {
    if (error instanceof CommandExit) return error.exitCode;
    throw error;
  }
}
