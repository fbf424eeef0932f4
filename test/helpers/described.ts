/**
 * An error as the CLI shows it: its fields plus the exit code (src/cli/output/exit-codes.ts) and the
 * `error:` message and `hint:` line that src/cli/output/error-hints.ts words for it (layers below the CLI carry codes, not hints).
 */
import { describeError } from '../../src/cli/output/error-hints.js';
import { exitCodeOf } from '../../src/cli/output/exit-codes.js';
import { TokencliError } from '../../src/errors.js';

export function described(error: unknown): Record<string, unknown> {
  if (!(error instanceof TokencliError)) throw error;
  const { message, hint } = describeError(error);
  return { ...error, exitCode: exitCodeOf(error), name: error.name, message, hint };
}
