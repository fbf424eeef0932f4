/**
 * `tokencli exec [--min-ttl S] -- CMD [ARGS…]`: obtains a token exactly as `tokencli token` does
 * (../token/obtain-token.ts), then runs CMD without a shell with the token in its environment, like
 * `aws-vault exec` and `op run`. tokencli's exit code is CMD's, so `exec` can wrap any step of a
 * script; its own failures print `error:` and keep their codes (docs/contract.md §2.6), and a CMD that
 * cannot be started gets the shells' 127 (not found) or 126 (not executable).
 */

import type { Deps } from '../../deps.js';
import { withPasswordTries } from '../../input/secrets.js';
import { CommandExit } from '../../output/command-exit.js';
import { targetOf, tokencliCommand } from '../../output/paste-command.js';
import type { TokenFlags } from '../token/get-token-flags.js';
import { obtainWithFlags } from '../token/obtain-token.js';
import { commandToRun, NO_COMMAND } from './command-line.js';
import { runWithToken } from './exec-child.js';

export type ExecOptions = TokenFlags;

export async function run(options: ExecOptions, ctx: Deps, argv: string[]): Promise<void> {
  const [command, args] = commandToRun(argv, `e.g. ${tokencliCommand(targetOf(ctx), NO_COMMAND.example)}`);
  const { record, service } = await withPasswordTries(ctx, options, () => obtainWithFlags(options, ctx));
  // A Ctrl-C while the token was obtained (a cached one takes no wait that would notice it) is a
  // request to stop: CMD must not start after it, and the run ends as any interrupted one (130).
  ctx.signal.throwIfAborted();
  throw new CommandExit(await runWithToken(command, args, record, service, ctx));
}
