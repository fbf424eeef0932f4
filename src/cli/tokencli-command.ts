/**
 * commander's Command with tokencli's answer to unknown options (see unknown-option.ts). Every
 * subcommand is created through `createCommand`, so the whole tree behaves alike.
 */
import { Command } from 'commander';
import { sanitizeText } from './sanitize.js';
import { flagName, secretFlagMessage } from './unknown-option.js';

// `unknownOption` is commander's (documented in its source, absent from its typings) hook for
// the "unknown option" error; it is overridden here rather than patching commander.
const commanderUnknownOption = (Command.prototype as unknown as { unknownOption(flag: string): void })
  .unknownOption;

export class TokencliCommand extends Command {
  override createCommand(name?: string): Command {
    return new TokencliCommand(name);
  }

  unknownOption(flag: string): void {
    const secret = secretFlagMessage(flag);
    if (secret) this.error(secret, { code: 'commander.unknownOption' });
    if (this.name() === 'exec') {
      // `tokencli exec curl -s …`: the command's own flags need `--` before the command.
      this.error(
        `error: unknown option '${sanitizeText(flagName(flag))}'\nhint: put -- before the command to run: tokencli exec [options] -- CMD [ARGS…]`,
        { code: 'commander.unknownOption' },
      );
    }
    // The name only: a value after `=` is never echoed, whatever it is.
    commanderUnknownOption.call(this, sanitizeText(flagName(flag)));
  }
}
