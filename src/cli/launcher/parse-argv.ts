/**
 * A small parser over the command model, for the launcher's light path: it reads the argv shapes
 * commander reads the same way (global flags before or after the command, `--flag value`,
 * `--flag=value`, `--no-x`, the last of a repeated flag winning) and gives up — returns undefined —
 * on anything else: help, short flags, unknown flags or commands, a value that is not one of its
 * choices, a switch given a value, a missing value or operand. Giving up is always safe: the full
 * CLI then parses the same argv with commander and says whatever is to be said.
 */
import { HELP_FLAG, VERSION_FLAG } from '../command-model/program.js';
import {
  type CommandDef,
  type FlagDef,
  flagDefaults,
  isNegation,
  optionKey,
  type ProgramDef,
} from '../command-model/types.js';
import { versionCommand } from '../commands/version/version-command.js';

export interface ParsedCommand {
  kind: 'command';
  /** `token`, `profile show`. */
  path: string;
  /** That command's definition in the command model. */
  command: CommandDef;
  /** Keyed as commander keys them (`baseUrl`, `color`), defaults included. */
  globals: Record<string, string | boolean>;
  options: Record<string, string | boolean>;
  /** As commander passes them: one per declared argument (undefined if not given), a variadic one as a list. */
  operands: (string | string[] | undefined)[];
  /** The flags given on the command line, global or the command's. */
  given: FlagDef[];
}

export type ParsedArgv = { kind: 'version' } | ParsedCommand;

const find = (flags: readonly FlagDef[], long: string) => flags.find((flag) => flag.long === long);

export function parseArgv(program: ProgramDef, args: readonly string[]): ParsedArgv | undefined {
  // `tokencli version` is the command that says the same (commands/version/version-command.ts).
  if (args.length === 1 && (args[0] === VERSION_FLAG.long || args[0] === versionCommand.name)) {
    return { kind: 'version' };
  }
  const globals = flagDefaults(program.globals);
  const given: FlagDef[] = [];
  let command: CommandDef | undefined;
  let path = '';
  let options: Record<string, string | boolean> = {};
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      // Everything after `--` is an operand, as commander reads it (exec's command line, whose
      // own flags must not be taken for tokencli's); only where the command takes a list.
      if (!command?.arguments?.at(-1)?.variadic) return undefined;
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const long = equals > 0 ? arg.slice(0, equals) : arg;
      const inline = equals > 0 ? arg.slice(equals + 1) : undefined;
      // Global flags are commander's program options: it reads them anywhere on the line.
      const global = find(program.globals, long);
      const flag = global ?? (command ? find(command.flags, long) : undefined);
      if (!flag || flag === VERSION_FLAG || flag === HELP_FLAG || flag.hidden) return undefined;
      const into = global ? globals : options;
      given.push(flag);
      if (flag.value === undefined) {
        if (inline !== undefined) return undefined;
        into[optionKey(flag.long)] = !isNegation(flag);
        continue;
      }
      if (flag.value.includes('...')) return undefined;
      const value = inline ?? args[++i];
      // commander would take a dash-led word as the value; whether it was meant to be one is
      // for the full CLI to judge.
      if (value === undefined || (inline === undefined && value.startsWith('-'))) return undefined;
      if (flag.choices && !flag.choices.includes(value)) return undefined;
      into[optionKey(flag.long)] = value;
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') return undefined;
    const within: readonly CommandDef[] | undefined = command ? command.subcommands : program.commands;
    if (within) {
      const next = within.find((c) => c.name === arg);
      if (!next) return undefined;
      command = next;
      path = path ? `${path} ${arg}` : arg;
      options = { ...flagDefaults(next.flags), ...options };
      continue;
    }
    operands.push(arg);
  }
  if (!command || command.subcommands) return undefined;
  const declared = command.arguments ?? [];
  if (operands.length > declared.length && !declared.at(-1)?.variadic) return undefined;
  for (const [index, argument] of declared.entries()) {
    const operand = operands[index];
    if (operand === undefined ? argument.required : argument.choices && !argument.choices.includes(operand))
      return undefined;
  }
  const positional = declared.map((argument, index) =>
    argument.variadic ? operands.slice(index) : operands[index],
  );
  return { kind: 'command', path, command, globals, options, operands: positional, given };
}
