/**
 * What the completion scripts know, read from the same command definitions the parser uses
 * (program.ts), so a new flag or choice is completed without touching the scripts. What an
 * option's value is comes from the definition itself: its choices, a `<file>` placeholder, or
 * `--profile`, whose names the shells read from the config file.
 */
import type { Command, Option } from 'commander';

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
}

/** What the words after a command's flags are. */
export type Positional = 'none' | 'commands' | 'command-line' | { choices: string[] };

export interface CommandSpec {
  name: string;
  description: string;
  flags: FlagSpec[];
  positional: Positional;
}

export interface CompletionModel {
  globals: FlagSpec[];
  commands: CommandSpec[];
}

function valueKindOf(option: Option): ValueKind {
  if (!option.required && !option.optional) return { kind: 'none' };
  if (option.argChoices) return { kind: 'choices', values: [...option.argChoices] };
  if (option.long === '--profile') return { kind: 'profile' };
  if (/<file(\.\.\.)?>|\[file(\.\.\.)?\]/.test(option.flags)) return { kind: 'file' };
  return { kind: 'free' };
}

function flagsOf(command: Command, withHelp: boolean): FlagSpec[] {
  const flags: FlagSpec[] = command.options
    .filter((option) => !option.hidden && option.long !== undefined)
    .map((option) => ({
      long: option.long as string,
      ...(option.short ? { short: option.short } : {}),
      description: option.description,
      value: valueKindOf(option),
    }));
  if (withHelp)
    flags.push({ long: '--help', short: '-h', description: 'show help', value: { kind: 'none' } });
  return flags;
}

function positionalOf(command: Command): Positional {
  // `profile list|use|show|remove`: the subcommands are the first word's choices.
  if (command.commands.length > 0) return { choices: command.commands.map((sub) => sub.name()) };
  const [argument] = command.registeredArguments;
  if (!argument) return 'none';
  if (argument.argChoices) return { choices: [...argument.argChoices] };
  // `exec -- CMD [ARGS…]`: a command line of its own.
  if (argument.variadic) return 'command-line';
  return 'none';
}

export function completionModel(program: Command): CompletionModel {
  const commands: CommandSpec[] = program.commands.map((command) => ({
    name: command.name(),
    description: command.description(),
    flags: flagsOf(command, true),
    positional: positionalOf(command),
  }));
  // commander's implicit `help [command]`.
  commands.push({ name: 'help', description: 'show help for a command', flags: [], positional: 'commands' });
  return { globals: flagsOf(program, true), commands };
}

/** `[A-Za-z0-9][A-Za-z0-9._-]{0,63}` (SPEC.md §2.2): the names the shells offer for `--profile`. */
export const PROFILE_NAME_PATTERN = '[A-Za-z0-9][A-Za-z0-9._-]{0,63}';
