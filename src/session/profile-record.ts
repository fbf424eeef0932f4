/**
 * What a profile records about itself: the service it talks to, the redirect URI, and the store
 * that holds its credentials — in the config file, never a secret there. Written by whatever
 * obtained a token, so the next session of the profile finds its service; read back to say where
 * credentials are when their store cannot be reached here.
 */
import { TokencliError } from '../errors.js';
import type { CredentialStore } from '../store/types.js';
import type { Session } from './session.js';
import type { ServiceCoordinates, Settings } from './settings.js';

/** Whether this session may keep what it obtains in the profile: not when it names another service. */
export function keepsInProfile(settings: Settings): boolean {
  return settings.overrides.length === 0;
}

/**
 * Records the service, redirect URI and store of the profile after a token was obtained and
 * stored, and keeps a client secret typed at a prompt in that store (as `configure` would).
 * Nothing is recorded with the `none` store (nothing persists) or when the session names another
 * service than the profile's.
 */
export async function rememberProfile(
  session: Session,
  settings: Settings,
  service: ServiceCoordinates,
  store: CredentialStore,
): Promise<void> {
  if (store.kind === 'none' || !keepsInProfile(settings)) return;
  const typed = session.typedClientSecret();
  if (typed !== undefined && (await store.getClientSecret(settings.profile)) !== typed) {
    await store.setClientSecret(settings.profile, typed);
  }
  await session.updateConfig((config) => {
    const before = config.profiles[settings.profile] ?? {};
    const after = { ...before, base_url: service.baseUrl, client_id: service.clientId, store: store.kind };
    if (settings.redirectUriGiven) after.redirect_uri = settings.redirectUri;
    config.profiles[settings.profile] = after;
    return JSON.stringify(before) !== JSON.stringify(after);
  });
}

/**
 * The default store rule fell back to the file: announced once per profile (recorded in the
 * config file), so it is an event of one session, not of every run.
 */
export async function announceFallback(
  session: Session,
  settings: Settings,
  reason: string,
  filePath: string,
): Promise<void> {
  if (settings.config.store_fallback_announced?.includes(settings.profile)) return;
  // A profile named on purpose that does not exist is about to be an error of its own; a notice
  // recorded for it would only litter the config file.
  if (!settings.profileExists && settings.profileSource !== 'default' && !settings.baseUrl) return;
  session.emit({ code: 'store_fallback', profile: settings.profile, reason, filePath });
  await session.updateConfig((config) => {
    const announced = new Set(config.store_fallback_announced ?? []);
    if (announced.has(settings.profile)) return false;
    config.store_fallback_announced = [...announced, settings.profile].sort();
    return true;
  });
}

/**
 * The keychain the profile recorded as holding its credentials cannot be reached here (an SSH
 * session without D-Bus, a locked keychain): say where the credentials are, not "not logged in".
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
      code: 'store',
      reason: 'profile_store_unreachable',
      details: { profile: settings.profile, why },
      cause: error,
    },
  );
}
