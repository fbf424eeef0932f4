/**
 * commander's Command with tokencli's answer to unknown options (see unknown-option.ts). Every
 * subcommand is created through `createCommand`, so the whole tree behaves alike.
 *
 * A contained bet on commander's private methods, kept in this one module. Overriding four of
 * them (below) buys the messages docs/contract.md §2.6 asks for, which commander has no public
 * hook for: a secret given as a flag value refused without echoing it, `--flag=value` on a switch
 * named as such, `exec`'s flags before `--` and its missing command explained, hostile words
 * sanitised, and `help nope` made an unknown command. They are in commander's source but not its
 * typings, and any release may rename or reshape them: commander is pinned to the exact version
 * they were read against (14.0.3, package.json), and test/cli/commander/commander-pin.test.ts
 * fails on an upgrade, whose author re-reads each override against the new source (the tests of
 * these messages, test/cli/commander/unknown-option.test.ts and the e2e ones, say whether they
 * still hold). Drop an override when commander offers a public way to the same message (an
 * error-formatting hook), or the whole class if commander ever stops being the parser.
 */
import { Command } from 'commander';
import { sanitizeText } from '../../text/sanitize.js';
import { NO_COMMAND } from '../commands/exec/command-line.js';
import { flagName, secretFlagMessage } from './unknown-option.js';

interface CommanderInternals {
  unknownOption(flag: string): void;
  unknownCommand(): void;
  missingArgument(name: string): void;
  _dispatchHelpCommand(name?: string): unknown;
}
const commanderPrototype = Command.prototype as unknown as CommanderInternals;

export class TokencliCommand extends Command {
  override createCommand(name?: string): Command {
    return new TokencliCommand(name);
  }

  /** The arguments from the first unknown option on, as the last parse left them. */
  #unknownArgs: readonly string[] = [];

  override parseOptions(argv: string[]): ReturnType<Command['parseOptions']> {
    const parsed = super.parseOptions(argv);
    this.#unknownArgs = parsed.unknown;
    return parsed;
  }

  unknownOption(flag: string): void {
    const secret = secretFlagMessage(flag);
    if (secret) this.error(secret, { code: 'commander.unknownOption' });
    const name = flagName(flag);
    if (name !== flag && this.#knows(name)) {
      // `--password-stdin=hunter2`: commander calls a known flag with `=value` unknown and then
      // suggests the very same flag; say what is wrong instead (the value is never echoed).
      const hint = name.endsWith('-stdin')
        ? `${name} reads its value from stdin: pipe the value in on stdin instead`
        : `give ${name} alone`;
      this.error(`error: option '${name}' takes no value\nhint: ${hint}`, {
        code: 'commander.unknownOption',
      });
    }
    if (this.name() === 'exec') {
      // `tokencli exec curl -s …`: the command's own flags need `--` before the command. With a
      // `--` already there, the flag before it is one exec does not have (`--format`, `--json`).
      const hint = this.#unknownArgs.includes('--')
        ? 'exec has no such flag; see tokencli exec --help (the token reaches the command in TOKENCLI_ACCESS_TOKEN)'
        : 'put -- before the command to run: tokencli exec [options] -- CMD [ARGS…]';
      this.error(`error: unknown option '${sanitizeText(flagName(flag))}'\nhint: ${hint}`, {
        code: 'commander.unknownOption',
      });
    }
    // The name only: a value after `=` is never echoed, whatever it is.
    commanderPrototype.unknownOption.call(this, sanitizeText(flagName(flag)));
  }

  /** Whether this command or one it belongs to (global flags) has the long option `name`. */
  #knows(name: string): boolean {
    for (let command: Command | null = this; command; command = command.parent) {
      if (command.options.some((option) => option.long === name)) return true;
    }
    return false;
  }

  /** `tokencli exec` (or `exec --`) without CMD: say so as exec does for an empty one, with an example. */
  missingArgument(name: string): void {
    if (this.name() === 'exec') {
      this.error(`error: ${NO_COMMAND.message}\nhint: e.g. tokencli ${NO_COMMAND.example}`, {
        code: 'commander.missingArgument',
      });
    }
    commanderPrototype.missingArgument.call(this, name);
  }

  /** commander echoes the unknown word; a hostile one (escape sequences) is shown sanitized. */
  unknownCommand(): void {
    const [word] = this.args;
    if (word !== undefined) this.args[0] = sanitizeText(word);
    commanderPrototype.unknownCommand.call(this);
  }

  /**
   * `tokencli help nope` would print the whole help as an error without saying why; it is an
   * unknown command like `tokencli nope` (with commander's "did you mean").
   */
  _dispatchHelpCommand(name?: string): unknown {
    const known = (word: string) =>
      word === 'help' || this.commands.some((c) => c.name() === word || c.aliases().includes(word));
    if (name !== undefined && !known(name)) {
      this.args = [name];
      this.unknownCommand();
    }
    return commanderPrototype._dispatchHelpCommand.call(this, name);
  }
}
