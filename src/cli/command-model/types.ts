/**
 * The command model: every command, its flags and its arguments as plain data. One definition
 * serves three readers: program.ts assembles commander from it, the completion scripts are
 * generated from it (completion/model.ts), and the launcher's light path parses argv with it
 * (light-argv.ts) without loading commander. Nothing here imports code that runs a command.
 */

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
}

export interface ProgramDef {
  name: string;
  description: string;
  globals: readonly FlagDef[];
  examples: readonly string[];
  commands: readonly CommandDef[];
}

/** The camelCase key commander gives a flag's value: `--min-ttl` → `minTtl`, `--no-store` → `store`. */
export function optionKey(long: string): string {
  const name = long.replace(/^--/, '').replace(/^no-/, '');
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Whether a flag is the negation of a switch (`--no-color`). */
export const isNegation = (flag: FlagDef): boolean =>
  flag.value === undefined && flag.long.startsWith('--no-');
