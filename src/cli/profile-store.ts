/**
 * What a profile records about itself (issue 9): the service it talks to, the redirect URI, and
 * the store that holds its credentials — in the config file, never a secret there. Written by
 * whatever obtained a token, so `tokencli --profile p token` works after one run with flags; read
 * back to say where credentials are when their store cannot be reached here.
 */
import { ExitCode, TokencliError } from '../errors.js';
import type { ConfigFile } from './config-file.js';
import type { Deps } from './deps.js';
import type { Settings } from './settings.js';

/** Whether this run may keep what it obtains in the profile: not when flags name another service. */
export function keepsInProfile(settings: Settings): boolean {
  return settings.overrides.length === 0;
}

/**
 * Records the service, redirect URI and store of the profile after a token was obtained and
 * stored, and keeps a client secret typed at the prompt in that store (as `configure` would).
 * Nothing is recorded with the `none` store (nothing persists) or when flags named another
 * service than the profile's for this run.
 */
export async function rememberProfile(deps: Deps): Promise<void> {
  const [settings, store] = await Promise.all([deps.settings(), deps.store()]);
  if (store.kind === 'none' || !keepsInProfile(settings)) return;
  const { baseUrl, clientId } = await deps.service();
  const typed = deps.typedClientSecret();
  if (typed !== undefined && (await store.getClientSecret(settings.profile)) !== typed) {
    await store.setClientSecret(settings.profile, typed);
  }
  await deps.updateConfig((config) => {
    const before = config.profiles[settings.profile] ?? {};
    const after = { ...before, base_url: baseUrl, client_id: clientId, store: store.kind };
    if (settings.redirectUriGiven) after.redirect_uri = settings.redirectUri;
    config.profiles[settings.profile] = after;
    return JSON.stringify(before) !== JSON.stringify(after);
  });
}

/** The stderr line for flags that name another service than the profile recorded. */
export function overrideWarning(settings: Settings): string {
  const parts = settings.overrides.map(
    (o) => `${o.setting} ${o.given} (from ${o.source}) instead of the profile's ${o.recorded}`,
  );
  return (
    `warning: this run uses ${parts.join(' and ')}; the credentials stored in profile "${settings.profile}" belong to that other service and are not used, and nothing obtained now is kept in it` +
    `\nhint: to switch the profile to it, run \`tokencli configure\` with those flags; to keep both, add --profile NAME`
  );
}

/**
 * The default store rule fell back to the file: said once per profile (recorded in the config),
 * with how to choose the file store on purpose, which silences it for good.
 */
export async function announceFallback(
  settings: Settings,
  reason: string,
  filePath: string,
  warn: (line: string) => void,
  quiet: boolean,
  update: (change: (config: ConfigFile) => boolean) => Promise<void>,
): Promise<void> {
  if (quiet || settings.config.store_fallback_announced?.includes(settings.profile)) return;
  // A profile named on purpose that does not exist is about to be an error of its own; a notice
  // recorded for it would only litter the config file.
  if (!settings.profileExists && settings.profileSource !== 'default' && !settings.baseUrl) return;
  warn(
    `warning: OS keychain unavailable (${reason}); keeping the credentials of profile "${settings.profile}" in ${filePath}`,
  );
  warn(
    'hint: said once per profile; to choose the file store yourself, run `tokencli configure --store file` or set TOKENCLI_STORE=file',
  );
  await update((config) => {
    const announced = new Set(config.store_fallback_announced ?? []);
    if (announced.has(settings.profile)) return false;
    config.store_fallback_announced = [...announced, settings.profile].sort();
    return true;
  });
}

/**
 * The keychain the profile recorded as holding its credentials cannot be reached here (an SSH
 * session without D-Bus, a locked keychain): say where the credentials are and what to do, not
 * "not logged in". Exit 4: nothing usable is stored that this session can reach (SPEC.md §2.6).
 */
export function storeUnreachable(error: unknown, settings: Settings): unknown {
  if (
    !(error instanceof TokencliError) ||
    error.reason !== 'keychain_unavailable' ||
    settings.storeSource !== 'profile'
  ) {
    return error;
  }
  const why = error.details.why ?? error.message;
  return new TokencliError(
    `the credentials of profile "${settings.profile}" are in the OS keychain, which cannot be reached here (${why})`,
    {
      exitCode: ExitCode.notLoggedIn,
      code: 'store',
      reason: 'profile_store_unreachable',
      details: { profile: settings.profile, why },
      hint: 'run where the keychain is reachable (a desktop session; over SSH start the Secret Service, e.g. dbus-run-session with gnome-keyring-daemon --unlock), or pass --store file and log in again to keep a separate copy in a file',
      cause: error,
    },
  );
}
