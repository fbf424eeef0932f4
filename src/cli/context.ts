import type { IO } from './input/io.js';

/** The global flags of docs/contract.md §2.2, as commander parsed them (undefined = not given). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  clientId?: string;
  store?: string;
  timeout?: string;
  caFile?: string;
  verbose: boolean;
  quiet: boolean;
  /** false with `--no-color`. */
  color: boolean;
}

/** What every command's `run` receives besides its own options. */
export interface CommandContext {
  io: IO;
  globals: GlobalOptions;
  /** Aborted on Ctrl-C; long waits (login, HTTP) listen to it and stop cleanly (exit 130). */
  signal: AbortSignal;
  /** The command only looks (CommandDef.readOnly): its session writes no config file. */
  readOnly?: boolean;
}
