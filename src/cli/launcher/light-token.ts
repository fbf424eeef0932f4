/**
 * The launcher's light answer to `tokencli token` (any of its flags and formats, as
 * light-argv.ts parsed them) whose token is cached and fresh (docs/contract.md §2.3 step 1, §4 "Speed"):
 * the command scripts run before every API call. It answers without loading commander or the
 * command table, through the same functions the full `token` command uses: resolveSettings (the
 * precedence rules), openStore (the store choice and its warnings), the store's getTokens,
 * freshRecord, chooseTokenFormat and renderToken. A flag that may read stdin, renew or change what
 * is obtained (`--force`, `--email`, the `-stdin` flags, `--end-other-sessions`), or `--verbose`,
 * is left to the full CLI. Anything else — no settings, a bad setting, no fresh
 * token, a store that warns or fails — is handed to the full CLI, which decides and reports it as
 * it always does; the fast path prints nothing then, except what only it can still say (below).
 */

import { freshRecord } from '../../session/profile-tokens.js';
import { resolveSettings, type ServiceCoordinates, type Settings } from '../../session/settings.js';
import { loadCredentialsFile } from '../../store/credentials-file.js';
import { openStore } from '../../store/open-store.js';
import type { CredentialStore, TokenRecord } from '../../store/types.js';
import type { CommandContext, GlobalOptions } from '../context.js';
import { processIO } from '../input/io.js';
import { chooseTokenFormat, renderToken } from '../output/token-formats.js';
import { sessionOptions } from '../session-options.js';
import type { ParsedCommand } from './parse-argv.js';

/**
 * `token`'s `--min-ttl` default (commands/token-flags.ts); test/cli/fast-token.test.ts checks the two agree.
 */
export const DEFAULT_MIN_TTL_SECONDS = 60;

/** The global options as commander reports them when none is given. */
const NO_GLOBAL_FLAGS = { verbose: false, quiet: false, color: true } as const;

/** `token`'s flags the cached answer reads; any other given flag leaves the run to the full CLI. */
export interface CachedTokenOptions {
  format?: string;
  json?: boolean;
  showTokens?: boolean;
  minTtl?: string;
}

/** The global flags a cached answer reads; any other leaves the run to the full CLI. */
const LIGHT_GLOBALS: ReadonlySet<string> = new Set([
  'profile',
  'baseUrl',
  'clientId',
  'store',
  'timeout',
  'caFile',
  'quiet',
  'color',
]);
const LIGHT_OPTIONS = new Set(['format', 'json', 'showTokens', 'minTtl', 'store']);

/**
 * The context a cached answer runs in, or undefined when the command line gives a flag the cached
 * answer does not read (`--verbose`, or any flag outside `lightGlobals`/`lightOptions`): the full
 * CLI runs then.
 */
export function lightContext(
  parsed: ParsedCommand,
  lightOptions: ReadonlySet<string>,
  io: CommandContext['io'],
): CommandContext | undefined {
  const { globals, options } = parsed;
  if (globals.verbose !== false) return undefined;
  for (const key of Object.keys(globals)) if (key !== 'verbose' && !LIGHT_GLOBALS.has(key)) return undefined;
  for (const key of Object.keys(options)) if (!lightOptions.has(key)) return undefined;
  // Made when first asked for: a cached answer never is, and AbortController costs a module load.
  let signal: AbortSignal | undefined;
  return {
    io,
    globals: globals as unknown as GlobalOptions,
    get signal() {
      signal ??= new AbortController().signal;
      return signal;
    },
  };
}

/**
 * Answers `tokencli token …` as light-argv.ts parsed it, or returns false (having printed nothing)
 * for the full CLI to run. Never throws.
 */
export async function answerToken(parsed: ParsedCommand, io = processIO()): Promise<boolean> {
  // `--no-store` changes only what a renewal would do; the cached answer is the same.
  const ctx = lightContext(parsed, LIGHT_OPTIONS, io);
  return ctx !== undefined && printCachedToken(ctx, parsed.options as CachedTokenOptions);
}

const WHOLE_SECONDS = /^\d+$/;

/** A fresh cached token of the settings' service, as the full CLI would take it from the store. */
export interface CachedToken {
  record: TokenRecord;
  settings: Settings;
  service: ServiceCoordinates;
  now: Date;
}

/**
 * The cached token the full CLI would use as it is (docs/contract.md §2.3 step 1), or undefined
 * (having printed nothing, except below) for the full CLI to take over. Never throws.
 */
export async function cachedToken(
  ctx: CommandContext,
  minTtlFlag?: string,
): Promise<CachedToken | undefined> {
  try {
    // A bad --min-ttl: the full CLI words the error.
    const minTtl = minTtlFlag ?? String(DEFAULT_MIN_TTL_SECONDS);
    if (!WHOLE_SECONDS.test(minTtl) || !Number.isSafeInteger(Number(minTtl))) return undefined;
    const settings = await resolveSettings(sessionOptions(ctx), ctx.io.env);
    const { baseUrl, clientId } = settings;
    // Flags or variables naming another service than the profile's: the full CLI warns about it.
    if (!baseUrl || !clientId || settings.overrides.length > 0) return undefined;

    // Warnings while opening (the default store falling back to the file, docs/contract.md §2.7) are left
    // to the full CLI, which says them once per profile and records that it did (src/session/profile-record.ts);
    // once the profile's store is recorded, later runs open it without a probe and stay here.
    // Warnings while reading mean a damaged entry.
    const openWarnings: string[] = [];
    const readWarned: string[] = [];
    let reading = false;
    const store: CredentialStore = await openStore({
      kind: settings.storeKind,
      configDir: settings.configDir,
      // On Linux the token is read over the keychain probe's D-Bus connection, without loading
      // the native keyring module; anything but a plain read falls back to it (open-store.ts).
      lazyKeyring: true,
      tokensProfile: settings.profile,
      warn: (line) => {
        if (reading) readWarned.push(line);
        else openWarnings.push(line);
      },
    });
    if (openWarnings.length > 0) return undefined;
    // Reading a damaged credentials file moves it aside: leave that, and its warning, to the full CLI.
    if (store.kind === 'file' && !(await loadCredentialsFile(store.location)).ok) return undefined;
    reading = true;
    const stored = await store.getTokens(settings.profile);
    const now = new Date();
    const service = { baseUrl, clientId };
    const record = freshRecord(stored, service, Number(minTtl), now);
    if (!record || readWarned.length > 0) {
      // The keychain store sets a damaged record aside as it reads it, so the full CLI will not
      // see it again: say it here. The file store changes nothing then, and the full CLI says it.
      if (store.kind === 'keychain') for (const line of readWarned) ctx.io.stderr.write(`${line}\n`);
      return undefined;
    }
    return { record, settings, service, now };
  } catch {
    return undefined;
  }
}

/**
 * Prints the cached token and returns true, or returns false (having printed nothing) for the full
 * CLI to take over. Never throws.
 */
export async function printCachedToken(
  ctx: CommandContext = defaultContext(),
  options: CachedTokenOptions = {},
): Promise<boolean> {
  try {
    // A contradiction in the format flags: the full CLI words the error.
    const format = chooseTokenFormat(options);
    const cached = await cachedToken(ctx, options.minTtl);
    if (!cached) return false;
    const { record, settings, now } = cached;
    // Rendered before anything is written: a token no header can carry is the full CLI's to report.
    const text = renderToken(format, record, settings.profile, 'cache', now, options.showTokens === true);
    ctx.io.stdout.write(text);
    return true;
  } catch {
    return false;
  }
}

function defaultContext(): CommandContext {
  return { io: processIO(), globals: { ...NO_GLOBAL_FLAGS }, signal: new AbortController().signal };
}

/** The launcher's entry (light-argv.ts): exit code 0 once answered, or false for the full CLI. */
export async function answer(parsed: ParsedCommand, io = processIO()): Promise<number | false> {
  return (await answerToken(parsed, io)) ? 0 : false;
}
