/**
 * What the completion scripts know, read from the command model (command-model/), the same
 * definitions commander/build-program.ts builds the parser from, so a new flag or choice is completed without
 * touching the scripts. What an option's value is comes from the definition itself: its choices,
 * a `<file>` placeholder, or a profile name, which the shells read from the config file.
 */
import { HELP_FLAG, isClientGlobal, takesClientGlobals } from '../command-model/flags.js';
import type { CommandDef, FlagDef, ProgramDef } from '../command-model/types.js';

export type ValueKind =
  | { kind: 'none' }
  | { kind: 'free' }
  | { kind: 'file' }
  | { kind: 'profile' }
  | { kind: 'choices'; values: string[] };

export interface FlagSpec {
  /** `--json`, and `-h` for `--help`. */
  long: string;
  short?: string;
  description: string;
  value: ValueKind;
  /** A global flag only the client commands take (not offered for `serve` or `completion`). */
  clientOnly?: boolean;
}

/** What the words after a command's flags are (`profile`: a profile name). */
export type Positional = 'none' | 'commands' | 'command-line' | 'profile' | { choices: string[] };

export interface CommandSpec {
  name: string;
  description: string;
  flags: FlagSpec[];
  positional: Positional;
  /** Whether the client-only global flags apply (not for `serve`, `completion`). */
  clientGlobals: boolean;
  /** `profile list|use|show|remove`; their names are also this command's positional choices. */
  subcommands?: CommandSpec[];
}

export interface CompletionModel {
  globals: FlagSpec[];
  commands: CommandSpec[];
}

function valueKindOf(flag: FlagDef): ValueKind {
  if (flag.value === undefined) return { kind: 'none' };
  if (flag.choices) return { kind: 'choices', values: [...flag.choices] };
  if (flag.complete === 'profile') return { kind: 'profile' };
  if (/<file(\.\.\.)?>|\[file(\.\.\.)?\]/.test(flag.value)) return { kind: 'file' };
  return { kind: 'free' };
}

function flagsOf(flags: readonly FlagDef[]): FlagSpec[] {
  return [...flags, HELP_FLAG]
    .filter((flag) => !flag.hidden)
    .map((flag) => ({
      long: flag.long,
      ...(flag.short ? { short: flag.short } : {}),
      description: flag.description ?? '',
      value: valueKindOf(flag),
      ...(isClientGlobal(flag) ? { clientOnly: true } : {}),
    }));
}

function positionalOf(command: CommandDef): Positional {
  // `profile list|use|show|remove`: the subcommands are the first word's choices.
  if (command.subcommands) return { choices: command.subcommands.map((sub) => sub.name) };
  const [argument] = command.arguments ?? [];
  if (!argument) return 'none';
  if (argument.choices) return { choices: [...argument.choices] };
  // `exec -- CMD [ARGS…]`: a command line of its own.
  if (argument.variadic) return 'command-line';
  if (argument.complete === 'profile') return 'profile';
  return 'none';
}

function commandSpec(command: CommandDef, clientGlobals: boolean): CommandSpec {
  return {
    name: command.name,
    description: command.description,
    flags: flagsOf(command.flags),
    positional: positionalOf(command),
    clientGlobals,
    ...(command.subcommands
      ? { subcommands: command.subcommands.map((sub) => commandSpec(sub, clientGlobals)) }
      : {}),
  };
}

export function completionModel(program: ProgramDef): CompletionModel {
  const commands = program.commands.map((command) => commandSpec(command, takesClientGlobals(command)));
  // commander's implicit `help [command]`.
  commands.push({
    name: 'help',
    description: 'show help for a command',
    flags: [],
    positional: 'commands',
    clientGlobals: true,
  });
  return { globals: flagsOf(program.globals), commands };
}

/** `[A-Za-z0-9][A-Za-z0-9._-]{0,63}` (docs/contract.md §2.2): the names the shells offer for `--profile`. */
export const PROFILE_NAME_PATTERN = '[A-Za-z0-9][A-Za-z0-9._-]{0,63}';

/** Every command and subcommand, named by its path (`profile use`). */
export function commandPaths(commands: CommandSpec[]): CommandSpec[] {
  return commands.flatMap((command) => [
    command,
    ...(command.subcommands ?? []).map((sub) => ({ ...sub, name: `${command.name} ${sub.name}` })),
  ]);
}
