/**
 * Assembles commander from the command model (command-model/): the flags, arguments, help and
 * examples are declared beside each command; this file only builds the tree and binds each
 * command to its run function. Command modules are imported only when their command runs, so
 * `tokencli token` does not pay for the server, SAML or the browser.
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
import { type ArgumentDef, type CommandDef, type FlagDef, optionKey } from '../command-model/types.js';
// `token` runs before every API call in scripts, so its (light) module graph is loaded up front
// and bundled into the entry chunk; every other command is imported only when it runs.
import * as tokenCommand from '../commands/token/token.js';
import type { Deps } from '../deps.js';
import { helpConfiguration } from './help-format.js';
import { TokencliCommand } from './tokencli-command.js';

/** Builds the dependencies object a command runs with (see deps.ts), given its definition. */
export type DepsFactory = (command: Command, def: CommandDef) => Deps;

export interface ProgramOutput {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

// biome-ignore lint/suspicious/noExplicitAny: each run function has its own typed options.
type RunFunction = (options: any, deps: Deps, ...positional: any[]) => Promise<void>;
type Loader = () => Promise<RunFunction>;

const profileRun =
  (name: 'list' | 'use' | 'show' | 'remove'): Loader =>
  async () =>
    (await import('../commands/profile/profile.js'))[name];

/** Where each command's run function is, by its path in the tree (`profile use`). */
const RUN_FUNCTIONS: Record<string, Loader> = {
  configure: async () => (await import('../commands/configure/configure.js')).run,
  login: async () => (await import('../commands/login/login.js')).run,
  token: async () => tokenCommand.run,
  exec: async () => (await import('../commands/exec/exec.js')).run,
  refresh: async () => (await import('../commands/refresh/refresh.js')).run,
  sso: async () => (await import('../commands/sso/sso.js')).run,
  info: async () => (await import('../commands/info/info.js')).run,
  status: async () => (await import('../commands/status/status.js')).run,
  logout: async () => (await import('../commands/logout/logout.js')).run,
  'profile list': profileRun('list'),
  'profile use': profileRun('use'),
  'profile show': profileRun('show'),
  'profile remove': profileRun('remove'),
  serve: async () => (await import('../commands/serve/serve.js')).run,
  completion: async () => (await import('../commands/completion/completion.js')).run,
};

/**
 * Replaces how a command's run function is found, by its path (`token`, `profile use`): in-process
 * tests record the typed options a command would run with (test/cli/option-parsing.test.ts).
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
      const run = runOverride?.(path) ?? (await RUN_FUNCTIONS[path]?.());
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
  return program;
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
