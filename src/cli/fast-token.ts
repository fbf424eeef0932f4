/**
 * The launcher's fast path for a bare `tokencli token` whose token is cached and fresh (SPEC.md
 * §2.3 step 1, §4 "Speed"): the command scripts run before every API call. It answers without
 * loading commander or the command table, through the same functions the full `token` command
 * uses: resolveSettings (the precedence rules), openStore (the store choice and its warnings),
 * the store's getTokens and freshRecord. Anything else — no settings, a bad setting, no fresh
 * token, a store that warns or fails — is handed to the full CLI, which decides and reports it as
 * it always does; the fast path prints nothing then, except what only it can still say (below).
 */

import { freshRecord } from '../session/profile-tokens.js';
import { resolveSettings } from '../session/settings.js';
import { loadCredentialsFile } from '../store/credentials-file.js';
import { openStore } from '../store/open-store.js';
import type { CredentialStore } from '../store/types.js';
import type { CommandContext } from './context.js';
import { processIO } from './io.js';
import { sessionOptions } from './session-options.js';

/**
 * `token`'s `--min-ttl` default (program.ts); test/cli/fast-token.test.ts checks the two agree.
 */
export const DEFAULT_MIN_TTL_SECONDS = 60;

/** The global options as commander reports them when none is given. */
const NO_GLOBAL_FLAGS = { verbose: false, quiet: false, color: true } as const;

/**
 * Prints the cached token and returns true, or returns false (having printed nothing) for the full
 * CLI to take over. Never throws.
 */
export async function printCachedToken(ctx: CommandContext = defaultContext()): Promise<boolean> {
  try {
    const settings = await resolveSettings(sessionOptions(ctx), ctx.io.env);
    const { baseUrl, clientId } = settings;
    if (!baseUrl || !clientId) return false;

    // Warnings while opening (the default store falling back to the file, SPEC.md §2.7) are left
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
      warn: (line) => {
        if (reading) readWarned.push(line);
        else openWarnings.push(line);
      },
    });
    if (openWarnings.length > 0) return false;
    // Reading a damaged credentials file moves it aside: leave that, and its warning, to the full CLI.
    if (store.kind === 'file' && !(await loadCredentialsFile(store.location)).ok) return false;
    reading = true;
    const stored = await store.getTokens(settings.profile);
    const record = freshRecord(stored, { baseUrl, clientId }, DEFAULT_MIN_TTL_SECONDS, new Date());
    if (!record || readWarned.length > 0) {
      // The keychain store sets a damaged record aside as it reads it, so the full CLI will not
      // see it again: say it here. The file store changes nothing then, and the full CLI says it.
      if (store.kind === 'keychain') for (const line of readWarned) ctx.io.stderr.write(`${line}\n`);
      return false;
    }

    ctx.io.stdout.write(`${record.access_token}\n`);
    return true;
  } catch {
    return false;
  }
}

function defaultContext(): CommandContext {
  return { io: processIO(), globals: { ...NO_GLOBAL_FLAGS }, signal: new AbortController().signal };
}
