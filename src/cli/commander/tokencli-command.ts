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
import { Command, type Option } from 'commander';
import { sanitizeText } from '../../text/sanitize.js';
import { NO_COMMAND } from '../commands/exec/command-line.js';
import { shellWord } from '../commands/serve/invocation.js';
import { type CommandFor, commandsFor } from '../output/paste-command.js';
import { flagName, secretFlagAdvice, secretFlagMessage } from './unknown-option.js';

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
  /** The arguments the last parse was given (the root's: the whole line). */
  #parsedArgs: readonly string[] = [];

  override parseOptions(argv: string[]): ReturnType<Command['parseOptions']> {
    this.#parsedArgs = argv;
    const parsed = super.parseOptions(argv);
    this.#unknownArgs = parsed.unknown;
    return parsed;
  }

  /** The root program: its options are the global flags, as parsed so far. */
  #root(): Command {
    let command: Command = this;
    while (command.parent) command = command.parent;
    return command;
  }

  /** `tokencli token`, `tokencli profile show`: this command's line, for "see … --help". */
  #path(): string {
    const names: string[] = [];
    for (let command: Command | null = this; command; command = command.parent) names.unshift(command.name());
    return names.join(' ');
  }

  /** The pasteable commands of a hint, with the global flags that chose this run's profile and service. */
  #commands(): CommandFor {
    const { profile, store, baseUrl, clientId, caFile } = this.#root().opts();
    return commandsFor({ profile, store, baseUrl, clientId, caFile });
  }

  /**
   * Every unknown option's error ends with where the command's flags are listed, unless it has
   * a hint of its own already.
   */
  override error(message: string, errorOptions?: { code?: string; exitCode?: number }): never {
    if (errorOptions?.code === 'commander.unknownOption' && !message.includes('\nhint: ')) {
      return super.error(`${message}\nhint: see ${this.#path()} --help`, errorOptions);
    }
    return super.error(message, errorOptions);
  }

  unknownOption(flag: string): void {
    const secret = secretFlagMessage(flag, this.#commands());
    if (secret) this.error(secret, { code: 'commander.unknownOption' });
    if (flag === '-v' && !this.parent) {
      // gh, kubectl and many others read -v one way or the other: name both, take neither.
      this.error(
        "error: unknown option '-v'\nhint: for the version, give --version (or tokencli version); for more output, --verbose",
        { code: 'commander.unknownOption' },
      );
    }
    if (!this.parent) this.#misplaced(flag);
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

  /**
   * `tokencli --email a@b.c token`: a command's flag given before the command. Says whose it is,
   * and the line with the flag moved after the command — unless the line holds a word that looks
   * like a secret flag, which is never echoed.
   */
  #misplaced(flag: string): void {
    const name = flagName(flag);
    const line = [...this.#parsedArgs];
    const at = line.indexOf(flag);
    const end = line.indexOf('--');
    for (let i = at + 1; i < (end < 0 ? line.length : end); i++) {
      const sub = this.commands.find((c) => c.name() === line[i]);
      if (!sub) continue;
      const option = sub.options.find((o: Option) => o.long === name || o.short === name);
      if (!option) return;
      // The flag's value, when given as the next word, goes with it (the command word is not one).
      const taken = name === flag && (option.required || option.optional) && i > at + 1 ? 2 : 1;
      const moved = line.splice(at, taken);
      line.splice(i - taken + 1, 0, ...moved);
      const message = `error: option '${sanitizeText(name)}' belongs to ${sub.name()}: give it after the command`;
      const shown = line.some((word) => word.startsWith('-') && secretFlagAdvice(word) !== undefined)
        ? `see tokencli ${sub.name()} --help`
        : `\`${['tokencli', ...line].map((word) => shellWord(sanitizeText(word))).join(' ')}\``;
      this.error(`${message}\nhint: ${shown}`, { code: 'commander.unknownOption' });
    }
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
