/**
 * `tokencli exec [--min-ttl S] -- CMD [ARGS…]`: obtains a token exactly as `tokencli token` does
 * (token-flags.ts), then runs CMD without a shell with the token in its environment, like
 * `aws-vault exec` and `op run`. tokencli's exit code is CMD's, so `exec` can wrap any step of a
 * script; its own failures print `error:` and keep their codes (docs/contract.md §2.6), and a CMD that
 * cannot be started gets the shells' 127 (not found) or 126 (not executable).
 */
import { UsageError } from '../../errors.js';
import { CommandExit } from '../command-exit.js';
import type { Deps } from '../deps.js';
import { runWithToken } from '../exec-child.js';
import { targetOf, tokencliCommand } from '../paste-command.js';
import { withPasswordTries } from '../secrets.js';
import { obtainWithFlags, type TokenFlags } from '../token-flags.js';

export type ExecOptions = TokenFlags;

export async function run(options: ExecOptions, ctx: Deps, argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined || command === '') {
    throw new UsageError(
      'no command to run',
      `e.g. ${tokencliCommand(targetOf(ctx), 'exec -- curl https://api.example.com/v2/…')}`,
    );
  }
  const { record, service } = await withPasswordTries(ctx, options, () => obtainWithFlags(options, ctx));
  // A Ctrl-C while the token was obtained (a cached one takes no wait that would notice it) is a
  // request to stop: CMD must not start after it, and the run ends as any interrupted one (130).
  ctx.signal.throwIfAborted();
  throw new CommandExit(await runWithToken(command, args, record, service, ctx));
}
