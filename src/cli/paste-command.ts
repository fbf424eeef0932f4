/**
 * The one builder of the `tokencli …` commands that hints suggest. A hint is pasted, often into
 * another terminal: a bare `tokencli login` there acts on the active (or default) profile and its
 * recorded service, not on the one this run used. So every suggested command carries the flags
 * that chose this run's profile and service (`--profile`, and `--store`, `--base-url`,
 * `--client-id`, `--ca-file` where they were given), each value quoted for a POSIX shell, and is
 * written in backticks so the reader sees where it starts and ends.
 *
 * What this run was given is remembered per run (keyed by its abort signal, which every command
 * context carries): the error lines are written by run-reported.ts, which sees the error, not the
 * flags.
 */
import type { CommandContext } from './context.js';
import { shellWord } from './invocation.js';

/** The flags of a run that name its profile and service, as given (flag or variable). */
export interface RunTarget {
  profile?: string | undefined;
  store?: string | undefined;
  baseUrl?: string | undefined;
  clientId?: string | undefined;
  caFile?: string | undefined;
  /** `--no-color` was given. */
  noColor?: boolean;
}

const runs = new WeakMap<AbortSignal, RunTarget>();

/** The target of a command context: its global flags, and TOKENCLI_PROFILE for the profile. */
export function targetOf(ctx: Pick<CommandContext, 'globals' | 'io'>): RunTarget {
  const { globals, io } = ctx;
  return {
    // A profile chosen by the variable is carried too: the terminal a hint is pasted into may not have it.
    profile: globals.profile || io.env.TOKENCLI_PROFILE || undefined,
    store: globals.store,
    baseUrl: globals.baseUrl,
    clientId: globals.clientId,
    caFile: globals.caFile,
    noColor: globals.color === false,
  };
}

/** Records what this run was given, for the lines said after it ends (see runTarget). */
export function rememberRun(ctx: CommandContext): void {
  if (!runs.has(ctx.signal)) runs.set(ctx.signal, targetOf(ctx));
}

/** What the run of this signal was given; nothing known is an empty target (bare commands). */
export function runTarget(signal: AbortSignal): RunTarget {
  return runs.get(signal) ?? {};
}

const FLAGS: Array<[keyof RunTarget, string]> = [
  ['profile', '--profile'],
  ['store', '--store'],
  ['baseUrl', '--base-url'],
  ['clientId', '--client-id'],
  ['caFile', '--ca-file'],
];

/**
 * `` `tokencli --profile demo login` ``: `command` (a command and its own flags, as a person
 * types them) after the flags of `target`. `profile` names the profile the command is for when
 * the hint is about one in particular (a profile `status` listed, the one a warning was about);
 * a flag `command` gives itself (`configure --store file`) wins over the run's.
 */
export function tokencliCommand(target: RunTarget, command: string, profile?: string): string {
  const own = new Set(command.split(' ').filter((word) => word.startsWith('--')));
  const values: Partial<Record<keyof RunTarget, string | undefined>> = {
    ...target,
    profile: profile ?? target.profile,
    noColor: undefined,
  };
  const flags: string[] = [];
  for (const [key, flag] of FLAGS) {
    const value = values[key];
    if (typeof value === 'string' && value !== '' && !own.has(flag)) flags.push(flag, shellWord(value));
  }
  return `\`${['tokencli', ...flags, command].join(' ')}\``;
}

/** `tokencliCommand` bound to one target, as the hint table uses it. */
export type CommandFor = (command: string, profile?: string) => string;

export function commandsFor(target: RunTarget): CommandFor {
  return (command, profile) => tokencliCommand(target, command, profile);
}
