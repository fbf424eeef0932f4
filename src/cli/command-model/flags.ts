/**
 * The flags every command has, and which global flags a command takes: apart from program.ts so
 * that a command's run function can read them (the completion scripts do) without importing the
 * program, whose definitions refer back to the run functions.
 */
import type { CommandDef, FlagDef } from './types.js';

/** `--version`: answered by commander (or the launcher), never given to a command. */
export const VERSION_FLAG: FlagDef = { long: '--version', description: 'print the version' };
export const HELP_FLAG: FlagDef = { long: '--help', short: '-h', description: 'show help' };

/** Whether a global flag is one a command with `clientGlobals: false` does not take. */
export const isClientGlobal = (flag: FlagDef): boolean => flag.clientOnly === true;

export const takesClientGlobals = (command: CommandDef): boolean => command.clientGlobals !== false;
