import { ExitCode, TokencliError } from '../../errors.js';
import type { CommandContext } from '../context.js';

// Placeholder until the issue that builds `tokencli refresh` lands: fails loudly rather than pretending.
export async function run(_options: Record<string, unknown>, _ctx: CommandContext): Promise<void> {
  throw new TokencliError('`tokencli refresh` is not implemented yet', { exitCode: ExitCode.internal });
}
