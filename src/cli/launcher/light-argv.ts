/**
 * The launcher's first step (bin/tokencli.js), bundled as one small file: it reads argv against
 * the command model without loading commander or any command, and says whether a light path can
 * answer it — `--version`, or a command whose definition names a light answer (CommandDef.light)
 * — or the full CLI must run. The full CLI also runs whenever a light answer declines, so the
 * light path only ever answers what the full CLI would have answered the same way.
 */
import { VERSION } from '../../version.js';
import { PROGRAM } from '../command-model/program.js';
import { commandPaths, type LightModule, type ProgramDef } from '../command-model/types.js';
import { type ParsedCommand, parseArgv } from './parse-argv.js';

/** The commands with a light answer, by their path in the command model, from their definitions. */
export function lightAnswers(program: ProgramDef = PROGRAM): Map<string, LightModule> {
  const answers = new Map<string, LightModule>();
  for (const [path, def] of commandPaths(program)) if (def.light) answers.set(path, def.light);
  return answers;
}

/** What a light answer is given: the parsed command line, and whether a cached answer may be given. */
export interface LightCommand extends ParsedCommand {
  module: LightModule;
  /** A flag was given that leaves a cached-token answer to the full CLI (FlagDef.declinesCachedAnswer). */
  declinesCachedAnswer: boolean;
}

export type LightPlan = { kind: 'version'; version: string } | LightCommand;

export function lightPlan(args: readonly string[], program: ProgramDef = PROGRAM): LightPlan | undefined {
  const parsed = parseArgv(program, args);
  if (parsed === undefined) return undefined;
  if (parsed.kind === 'version') return { kind: 'version', version: VERSION };
  // The definition the parser found names it: no table of every command's answer on each run.
  const module = parsed.command.light;
  if (module === undefined) return undefined;
  const declinesCachedAnswer = parsed.given.some((flag) => flag.declinesCachedAnswer === true);
  return { ...parsed, module, declinesCachedAnswer };
}
