/**
 * Assembles commander from the command model (command-model/): the flags, arguments, help,
 * examples and run function are each command's definition (commands/token/token-command.ts for token, and so on);
 * this file only builds the tree. A run function's module is imported only when its command runs,
 * so a command does not pay for the server, SAML or the browser.
 */
import { Argument, type Command, Option } from 'commander';
import { VERSION } from '../../version.js';
import {
  CLIENT_GLOBAL_FLAGS,
  HELP_FLAG,
  PROGRAM,
  takesClientGlobals,
  VERSION_FLAG,
} from '../command-model/program.js';
import {
  type ArgumentDef,
  type CommandDef,
  commandPaths,
  type FlagDef,
  optionKey,
  type RunFunction,
} from '../command-model/types.js';
import type { Deps } from '../deps.js';
import { helpConfiguration } from './help-format.js';
import { TokencliCommand } from './tokencli-command.js';

/** Builds the dependencies object a command runs with (see deps.ts), given its definition. */
export type DepsFactory = (command: Command, def: CommandDef) => Deps;

export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/** Each command's run function, by its path in the tree (`profile use`), from its definition. */
const RUN_FUNCTIONS: ReadonlyMap<string, CommandDef['run']> = new Map(
  commandPaths(PROGRAM).map(([path, def]) => [path, def.run]),
);

/**
 * Replaces how a command's run function is found, by its path (`token`, `profile use`): in-process
 * tests record the typed options a command would run with (test/cli/commands/record-run.ts).
 */
export type RunOverride = (path: string) => RunFunction | undefined;

const examples = (lines: readonly string[]): string =>
  `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;

function helpAfter(def: { notes?: string; examples?: readonly string[] }): string | undefined {
  const notes = def.notes ? `\n${def.notes}\n` : '';
  const text = notes + (def.examples ? examples(def.examples) : '');
  return text === '' ? undefined : text;
}

function optionOf(flag: FlagDef): Option {
  const names = `${flag.short ? `${flag.short}, ` : ''}${flag.long}${flag.value ? ` ${flag.value}` : ''}`;
  const option = new Option(names, flag.description);
  if (flag.choices) option.choices(flag.choices);
  // A value's default shows as typed, `(default: 300)`, not as a quoted string; a switch's is
  // an implementation detail help does not show.
  if (typeof flag.default === 'string') option.default(flag.default, flag.default);
  else if (flag.default !== undefined) option.default(flag.default);
  else if (flag.defaultShown !== undefined) option.default(undefined, flag.defaultShown);
  if (flag.hidden) option.hideHelp();
  return option;
}

function argumentOf(def: ArgumentDef): Argument {
  const name = `${def.name}${def.variadic ? '...' : ''}`;
  const argument = new Argument(def.required ? `<${name}>` : `[${name}]`, def.description);
  if (def.choices) argument.choices(def.choices);
  return argument;
}

export function buildProgram(
  makeDeps: DepsFactory,
  output: ProgramOutput,
  runOverride?: RunOverride,
): Command {
  // exitOverride and output must be set before subcommands are added: commander copies them then.
  const program = new TokencliCommand(PROGRAM.name)
    .exitOverride()
    .configureOutput(output)
    .configureHelp(helpConfiguration)
    .description(PROGRAM.description)
    .version(VERSION, VERSION_FLAG.long, VERSION_FLAG.description)
    .helpOption(`${HELP_FLAG.short}, ${HELP_FLAG.long}`, HELP_FLAG.description);
  for (const flag of PROGRAM.globals) if (flag !== VERSION_FLAG) program.addOption(optionOf(flag));
  program.showSuggestionAfterError(true).addHelpText('after', examples(PROGRAM.examples));

  const action =
    (path: string, def: CommandDef) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const positional = args.slice(0, -2);
      const run = runOverride?.(path) ?? (await RUN_FUNCTIONS.get(path)?.(PROGRAM));
      if (!run) throw new Error(`no run function for ${path}`);
      await run(command.opts(), makeDeps(command, def), ...positional);
    };

  const add = (parent: Command, def: CommandDef, path: string): void => {
    const command = parent.command(def.name).description(def.description);
    for (const argument of def.arguments ?? []) command.addArgument(argumentOf(argument));
    for (const flag of def.flags) command.addOption(optionOf(flag));
    const after = helpAfter(def);
    if (after) command.addHelpText('after', after);
    for (const sub of def.subcommands ?? []) add(command, sub, `${path} ${sub.name}`);
    if (!def.subcommands) command.action(action(path, def));
  };
  for (const def of PROGRAM.commands) add(program, def, def.name);
  program.hook('preAction', refuseClientGlobals);
  program.hook('preAction', noStoreIsStoreNone);
  return program;
}

/**
 * A command's `--no-store` is an alias of the global `--store none`, with its behaviour: the run
 * neither reads nor keeps a token. Given with another `--store`, the two contradict each other.
 */
function noStoreIsStoreNone(program: Command, command: Command): void {
  if (command.getOptionValueSource('store') !== 'cli' || command.opts().store !== false) return;
  const given = program.getOptionValueSource('store') === 'cli' ? program.opts().store : undefined;
  if (given !== undefined && given !== 'none') {
    command.error(`error: --no-store (an alias of --store none) contradicts --store ${given}`, {
      code: 'tokencli.storeConflict',
      exitCode: 2,
    });
  }
  program.setOptionValueWithSource('store', 'none', 'cli');
}

/**
 * `tokencli serve --profile x` would otherwise run while ignoring the flag; a command that reads
 * none of the client's global flags (CommandDef.clientGlobals) refuses them as a usage error.
 */
function refuseClientGlobals(program: Command, command: Command): void {
  const def = PROGRAM.commands.find((c) => c.name === command.name() && command.parent === program);
  if (!def || takesClientGlobals(def)) return;
  const given = CLIENT_GLOBAL_FLAGS.filter(
    (flag) => program.getOptionValueSource(optionKey(flag.long)) === 'cli',
  );
  if (given.length === 0) return;
  const names = given.map((flag) => flag.long).join(', ');
  const why =
    def.name === 'serve'
      ? 'serve runs the service from its own flags and --config; see tokencli serve --help'
      : `${def.name} reads no profile or service settings; see tokencli ${def.name} --help`;
  command.error(`error: ${def.name} does not take ${names}\nhint: ${why}`, {
    code: 'tokencli.clientGlobal',
    exitCode: 2,
  });
}
