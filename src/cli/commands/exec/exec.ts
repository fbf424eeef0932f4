/**
 * `tokencli exec [--min-ttl S] -- CMD [ARGS…]`: obtains a token exactly as `tokencli token` does
 * (../token/obtain-token.ts), then runs CMD without a shell with the token in its environment, like
 * `aws-vault exec` and `op run`. tokencli's exit code is CMD's, so `exec` can wrap any step of a
 * script; its own failures print `error:` and keep their codes (docs/contract.md §2.6), and a CMD that
 * cannot be started gets the shells' 127 (not found) or 126 (not executable).
 */
import type { Deps } from '../../deps.js';
import { CommandExit } from '../../output/command-exit.js';
import type { TokenFlags } from '../token/get-token-flags.js';
import { obtainWithFlags } from '../token/obtain-token.js';
import { runWithToken } from './exec-child.js';
import { commandToRun } from './exec-command.js';

export type ExecOptions = TokenFlags;

export async function run(options: ExecOptions, ctx: Deps, argv: string[]): Promise<void> {
  const [command, args] = commandToRun(argv);
  const { record, service } = await obtainWithFlags(options, ctx);
  throw new CommandExit(await runWithToken(command, args, record, service, ctx));
}
