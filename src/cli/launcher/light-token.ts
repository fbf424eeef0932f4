/**
 * The launcher's light answer to `tokencli token` (any of its flags and formats, as
 * light-argv.ts parsed them) whose token is cached and fresh (docs/contract.md §2.3 step 1, §4 "Speed"):
 * the command scripts run before every API call. It answers without loading commander or the
 * command table, through the session's own cached-token step (src/session/token-steps.ts
 * `cachedToken`, which `getToken` takes first) and the checks and renderings the full `token`
 * command uses (parseMinTtl, chooseTokenFormat, renderToken). A flag that says it declines a cached
 * answer (FlagDef.declinesCachedAnswer: one that may read stdin, renew or change what is obtained,
 * or `--verbose`) leaves the run to the full CLI. Anything else — no settings, a bad setting, no
 * fresh token, a store that warns or fails — is handed to the full CLI, which decides and reports
 * it as it always does; the light answer prints nothing then, except what only it can still say
 * (below).
 */

import { Session } from '../../session/session.js';
import type { ServiceCoordinates, Settings } from '../../session/settings.js';
import { cachedToken as cachedTokenStep } from '../../session/token-steps.js';
import { openStore } from '../../store/open-store.js';
import type { TokenRecord } from '../../store/types.js';
import { parseMinTtl } from '../commands/token/get-token-flags.js';
import type { TokenOptions } from '../commands/token/token-command.js';
import type { CommandContext, GlobalOptions } from '../context.js';
import { processIO } from '../input/io.js';
import { chooseTokenFormat, renderToken } from '../output/token-formats.js';
import { sessionOptions } from '../session-options.js';
import type { LightCommand } from './light-argv.js';

/**
 * The context a cached answer runs in, or undefined when the command line gives a flag that
 * declines a cached answer: the full CLI runs then.
 */
export function lightContext(plan: LightCommand, io: CommandContext['io']): CommandContext | undefined {
  if (plan.declinesCachedAnswer) return undefined;
  // Made when first asked for: a cached answer never is, and AbortController costs a module load.
  let signal: AbortSignal | undefined;
  return {
    io,
    globals: plan.globals as unknown as GlobalOptions,
    get signal() {
      signal ??= new AbortController().signal;
      return signal;
    },
  };
}

/** A fresh cached token of the settings' service, as the full CLI would take it from the store. */
export interface CachedToken {
  record: TokenRecord;
  settings: Settings;
  service: ServiceCoordinates;
  /** The session's clock: read only by what shows the time left (`--format json`). */
  now: () => Date;
}

/**
 * The cached token the full CLI would use as it is (docs/contract.md §2.3 step 1), or undefined
 * (having printed nothing, except below) for the full CLI to take over. Never throws.
 */
export async function cachedToken(ctx: CommandContext, minTtlFlag: string): Promise<CachedToken | undefined> {
  try {
    // A bad --min-ttl: the full CLI words the error.
    const minTtlSeconds = parseMinTtl(minTtlFlag);
    // Warnings while opening (the default store falling back to the file, docs/contract.md §2.7) are
    // left to the full CLI, which says them once per profile and records that it did
    // (src/session/profile-record.ts); once the profile's store is recorded, later runs open it
    // without a probe and stay here. Warnings while reading mean a damaged entry.
    const openWarnings: string[] = [];
    const readWarned: string[] = [];
    // A --min-ttl that counts as half the token's life: the full CLI words its warning (rare
    // enough that the light bundle need not carry the wording).
    let halfLife = false;
    let reading = false;
    let profile: string | undefined;
    // No clock of our own: the session judges freshness by Date.now() (Session.time) and makes no
    // Date, which would cost a reading of the time zone.
    const session = new Session({
      ...sessionOptions(ctx),
      env: ctx.io.env,
      // The signal only when something asks for it (Session.signal).
      onEvent: (event) => {
        if (event.code === 'min_ttl_too_long') halfLife = true;
        if (event.code !== 'store_warning') return;
        if (reading) readWarned.push(event.message);
        else openWarnings.push(event.message);
      },
      openStore: (options) =>
        openStore({
          ...options,
          // Said as a warning rather than announced and recorded: the full CLI does that.
          onFallback: undefined,
          // On Linux the profile's keychain lookup goes out with the probe's calls (open-store.ts).
          tokensProfile: profile,
          // Reading a damaged credentials file would move it aside: that, and its warning, are
          // left to the full CLI; the read throws instead.
          leaveDamagedFile: true,
        }),
    });
    const settings = await session.settings();
    profile = settings.profile;
    const { baseUrl, clientId } = settings;
    // Flags or variables naming another service than the profile's: the full CLI warns about it.
    if (!baseUrl || !clientId || settings.overrides.length > 0) return undefined;
    const store = await session.store();
    if (openWarnings.length > 0) return undefined;
    reading = true;
    const record = await cachedTokenStep(session, minTtlSeconds);
    if (!record || readWarned.length > 0 || halfLife) {
      // The keychain store sets a damaged record aside as it reads it, so the full CLI will not
      // see it again: say it here. The file store changes nothing then, and the full CLI says it.
      if (store.kind === 'keychain') for (const line of readWarned) ctx.io.stderr.write(`${line}\n`);
      return undefined;
    }
    return { record, settings, service: { baseUrl, clientId }, now: session.now };
  } catch {
    return undefined;
  }
}

/**
 * Prints the cached token and returns true, or returns false (having printed nothing) for the full
 * CLI to take over. Never throws.
 */
export async function printCachedToken(ctx: CommandContext, options: TokenOptions): Promise<boolean> {
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

/** The launcher's entry (light-argv.ts): exit code 0 once answered, or false for the full CLI. */
export async function answer(plan: LightCommand, io = processIO()): Promise<number | false> {
  const ctx = lightContext(plan, io);
  return ctx !== undefined && (await printCachedToken(ctx, plan.options as unknown as TokenOptions))
    ? 0
    : false;
}
