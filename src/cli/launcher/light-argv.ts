/**
 * The launcher's first step (bin/tokencli.js), bundled as one small file: it reads argv against
 * the command model without loading commander or any command, and says whether a light path can
 * answer it — `--version`, or a command with a light answer (LIGHT_ANSWERS below) — or the full CLI
 * must run. The full CLI also runs whenever a light answer declines, so the light path only
 * ever answers what the full CLI would have answered the same way.
 */
import { VERSION } from '../../version.js';
import { PROGRAM } from '../command-model/program.js';
import { type ParsedCommand, parseArgv } from './parse-argv.js';

/**
 * The commands with a light answer, by their path in the command model, and the bundled file
 * (dist/cli-bundle/NAME.js, scripts/bundle.mjs) whose `answer(parsed)` gives it: an exit code, or
 * false to let the full CLI run. Any other command goes straight to the full CLI.
 */
const LIGHT_ANSWERS: Readonly<Record<string, LightModule>> = {
  token: 'fast-token',
  exec: 'fast-exec',
  info: 'fast-info',
  status: 'fast-status',
  'profile list': 'fast-profile',
  'profile show': 'fast-profile',
};

export type LightModule = 'fast-token' | 'fast-exec' | 'fast-info' | 'fast-status' | 'fast-profile';

export type LightPlan = { kind: 'version'; version: string } | (ParsedCommand & { module: LightModule });

export function lightPlan(args: readonly string[]): LightPlan | undefined {
  const parsed = parseArgv(PROGRAM, args);
  if (parsed?.kind === 'version') return { kind: 'version', version: VERSION };
  const module = parsed && Object.hasOwn(LIGHT_ANSWERS, parsed.path) ? LIGHT_ANSWERS[parsed.path] : undefined;
  return parsed && module ? { ...parsed, module } : undefined;
}
