/** `tokencli version`'s run function: the line `--version` prints. */
import { VERSION } from '../../../version.js';
import type { CommandContext } from '../../context.js';

export async function version(_options: Record<string, never>, ctx: CommandContext): Promise<void> {
  ctx.io.stdout.write(`${VERSION}\n`);
}
