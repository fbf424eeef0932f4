/**
 * The command model: every command, its flags and its arguments as plain data, plus a lazy
 * reference to its run function and the launcher's light answer, if it has one. Each command is
 * defined once (commands/token/token-command.ts, and so on) and every reader derives from that definition:
 * commander's program and help (commander/build-program.ts), the completion scripts
 * (completion/model.ts), the launcher's argv reader and light answers (launcher/light-argv.ts), and
 * the bundle list (scripts/bundle.mjs). Nothing here imports code that runs a command: a
 * definition refers to its run function through an `import()` made only when it runs. The argv
 * reader's bundle leaves out the help text (`description`, `notes`, `examples`, `defaultShown`:
 * scripts/help-text.mjs), which nothing on the launcher's light path may read.
 */
import type { Deps } from '../deps.js';

/** A command's run function: its typed options, the run's dependencies, then its operands. */
// biome-ignore lint/suspicious/noExplicitAny: each run function has its own typed options.
export type RunFunction = (options: any, deps: Deps, ...positional: any[]) => Promise<void>;

/**
 * The launcher's light answer to a command (a file of src/cli/launcher/, bundled on its own):
 * `answer(plan)` gives an exit code, or false to leave the run to the full CLI.
 */
export type LightModule = `light-${string}`;

/** One flag. A flag without `value` is a switch; `--no-x` is the negation of `x` (default true). */
export interface FlagDef {
  /** `--min-ttl`, `--no-store`. */
  long: string;
  /** `-h`. */
  short?: string;
  /** The value's placeholder as help shows it (`<seconds>`, `<name...>`); absent for a switch. */
  value?: string;
  /** Absent only for a hidden flag, which exists to be refused with a hint. */
  description?: string;
  choices?: readonly string[];
  /** The value the run function gets when the flag is not given (shown in help unless a switch). */
  default?: string | boolean;
  /** Shown in help as the default, without being given to the run function. */
  defaultShown?: string;
  hidden?: boolean;
  /** What the value names, for completion (`<file>` placeholders are files without saying so). */
  complete?: 'profile';
  /**
   * Given on the command line, this flag leaves a cached-token answer (`token`, `exec`) to the full
   * CLI: it may renew, read stdin or want what only the full CLI does (`--verbose`'s trace). Every
   * other flag, a new one included, stays on the light path unless it says so here.
   */
  declinesCachedAnswer?: true;
  /** A global flag only the client commands read (CommandDef.clientGlobals). */
  clientOnly?: true;
}

export interface ArgumentDef {
  name: string;
  description: string;
  required: boolean;
  variadic?: boolean;
  choices?: readonly string[];
  /** What the word names, for completion. */
  complete?: 'profile';
}

export interface CommandDef {
  name: string;
  description: string;
  flags: readonly FlagDef[];
  arguments?: readonly ArgumentDef[];
  subcommands?: readonly CommandDef[];
  /** Help text after the flags, before the examples. */
  notes?: string;
  examples?: readonly string[];
  /**
   * Whether the client-only global flags (profile, service, store, network) apply. `serve` runs
   * the service from its own flags and `completion` prints a script: they read none of them.
   */
  clientGlobals?: boolean;
  /**
   * The command only looks (`status`, `info`, `profile list|show`): its session never writes the
   * config file or creates the config directory (src/session/session.ts `readOnly`).
   */
  readOnly?: boolean;
  /**
   * Where the run function is, loaded when the command runs; absent for a group (`profile`). It is
   * given the whole program, which a run function that reads it (`completion`) cannot import.
   */
  run?: (program: ProgramDef) => Promise<RunFunction>;
  /** The launcher's light answer (launcher/), tried before the full CLI is loaded. */
  light?: LightModule;
}

export interface ProgramDef {
  name: string;
  description: string;
  globals: readonly FlagDef[];
  examples: readonly string[];
  commands: readonly CommandDef[];
}

/**
 * The camelCase key commander gives a flag's value: `--min-ttl` → `minTtl`, `--no-store` → `store`.
 * Commander's own steps (the long name without `--` and `no-`, camel-cased word by word), without
 * regular expressions: V8 compiles each one when first used, and this runs on the launcher's path
 * of every cached `token` with flags (three compiles, about 0.2 M instructions, measured).
 */
export function optionKey(long: string): string {
  let name = long.startsWith('--') ? long.slice(2) : long;
  if (name.startsWith('no-')) name = name.slice(3);
  return name.split('-').reduce((key, word) => key + word.charAt(0).toUpperCase() + word.slice(1));
}

/** Whether a flag is the negation of a switch (`--no-color`). */
export const isNegation = (flag: FlagDef): boolean =>
  flag.value === undefined && flag.long.startsWith('--no-');

/** The values the run function gets for flags not given, keyed as commander keys them. */
export function flagDefaults(flags: readonly FlagDef[]): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const flag of flags) {
    if (isNegation(flag)) values[optionKey(flag.long)] = true;
    else if (flag.default !== undefined) values[optionKey(flag.long)] = flag.default;
  }
  return values;
}

/** Every command with a run function, by its path (`token`, `profile use`), in help's order. */
export function commandPaths(program: ProgramDef): [string, CommandDef][] {
  const paths: [string, CommandDef][] = [];
  const walk = (def: CommandDef, path: string) => {
    for (const sub of def.subcommands ?? []) walk(sub, `${path} ${sub.name}`);
    if (!def.subcommands) paths.push([path, def]);
  };
  for (const def of program.commands) walk(def, def.name);
  return paths;
}
