/**
 * What `status` reports about the profiles (docs/contract.md §2.2): each one's service, user,
 * token expiries and store, gathered apart from any wording so that every face can print it. It
 * only reads: run it on a read-only session (session.ts `readOnly`) and nothing is written.
 *
 * Only profiles that exist are reported — in the config file, or with a token record in the
 * session's store; no profile is made up for an empty config directory. A store that cannot be
 * reached makes what it holds unknown (`null`), never "none stored".
 */
import { TokencliError } from '../errors.js';
import type { CredentialStore, TokenRecord } from '../store/types.js';
import type { Session } from './session.js';
import { activeProfileOf, noSuchProfile, type ProfileSource, type Settings } from './settings.js';

export interface ProfileStatus {
  profile: string;
  /** The active profile: the one commands given no profile use (settings.ts activeProfileOf). */
  active: boolean;
  /** The profile this run reports for and would act on (a profile option, else the active one). */
  selected: boolean;
  base_url: string | null;
  client_id: string | null;
  email: string | null;
  /** null when the profile's store cannot be reached: whether it holds a token is unknown. */
  logged_in: boolean | null;
  grant: string | null;
  access_token_expires_at: string | null;
  /** When the service refused the access token and it was dropped (refused-token.ts). */
  access_token_refused_at: string | null;
  refresh_token_expires_at: string | null;
  /** null when the profile's store cannot be reached, as `logged_in`. */
  client_secret_stored: boolean | null;
  store: string | null;
  /** Why the profile's store cannot be reached here. */
  store_problem?: string;
}

export interface ProfilesStatus {
  /** The session's profile: the one this run was given, else the active one. */
  selectedProfile: string;
  selectedSource: ProfileSource;
  /** Whether the selected profile exists (in the config file, or with a stored token). */
  selectedExists: boolean;
  /** The active profile: the one commands given no profile use (the same unless one was given). */
  activeProfile: string;
  /** The session's own store; undefined when it cannot be opened (said per profile instead). */
  store: CredentialStore | undefined;
  /** Sorted by name: the named profile only, when one was given on purpose, else every one. */
  profiles: ProfileStatus[];
  /** Each reported profile's stored record, to ask the service about (`status --check`). */
  records: ReadonlyMap<string, TokenRecord | undefined>;
}

/** The store a profile's credentials live in (src/cli/commands/profile-stores.ts chooses it). */
export type StoreFor = (profile: string) => Promise<CredentialStore>;

/**
 * Every profile's state, or the named one's.
 *
 * @throws TokencliError `no_such_profile` for a profile named on purpose that does not exist; the
 *   session's store error when that store was chosen explicitly and cannot be had (the user's
 *   choice to change, as for every other command).
 */
export async function profilesStatus(session: Session, storeFor: StoreFor): Promise<ProfilesStatus> {
  const settings = await session.settings();
  const chosen = settings.profileSource === 'option' || settings.profileSource === 'environment';
  let store: CredentialStore | undefined;
  try {
    store = await session.store();
  } catch (error) {
    if (!(error instanceof TokencliError) || error.code !== 'store') throw error;
    if (settings.storeSource === 'explicit') throw error;
    // A store the profile recorded but cannot be reached here is reported per profile below.
  }
  const stored = new Set((await store?.listProfiles()) ?? []);
  const configured = (name: string) => Object.hasOwn(settings.config.profiles, name);
  const names = chosen
    ? [settings.profile]
    : [...new Set([...Object.keys(settings.config.profiles), ...stored])].sort();

  const active = activeProfileOf(settings, session.env);
  const profiles: ProfileStatus[] = [];
  const records = new Map<string, TokenRecord | undefined>();
  for (const name of names) {
    const { status, record } = await profileStatus(
      name,
      { selected: settings.profile, active },
      settings.config.profiles,
      storeFor,
    );
    profiles.push(status);
    records.set(name, record);
  }
  if (chosen && !configured(settings.profile) && !profiles[0]?.logged_in) throw noSuchProfile(settings);

  return {
    selectedProfile: settings.profile,
    selectedSource: settings.profileSource,
    selectedExists: configured(settings.profile) || stored.has(settings.profile),
    activeProfile: active,
    store,
    profiles,
    records,
  };
}

async function profileStatus(
  name: string,
  run: { selected: string; active: string },
  configs: Settings['config']['profiles'],
  storeFor: StoreFor,
): Promise<{ status: ProfileStatus; record: TokenRecord | undefined }> {
  const config = configs[name] ?? {};
  const status: ProfileStatus = {
    profile: name,
    active: name === run.active,
    selected: name === run.selected,
    base_url: config.base_url ?? null,
    client_id: config.client_id ?? null,
    email: config.email ?? null,
    logged_in: false,
    grant: null,
    access_token_expires_at: null,
    access_token_refused_at: null,
    refresh_token_expires_at: null,
    client_secret_stored: false,
    store: config.store ?? null,
  };
  try {
    const store = await storeFor(name);
    const record = await store.getTokens(name);
    status.store = store.kind;
    status.base_url = record?.base_url ?? status.base_url;
    status.client_id = record?.client_id ?? status.client_id;
    status.email = record?.email ?? status.email;
    status.logged_in = record !== undefined;
    status.grant = record?.grant ?? null;
    status.access_token_expires_at = record?.expires_at ?? null;
    status.access_token_refused_at = record?.access_token_refused_at ?? null;
    status.refresh_token_expires_at = record?.refresh_token_expires_at ?? null;
    status.client_secret_stored = (await store.getClientSecret(name)) !== undefined;
    return { status, record };
  } catch (error) {
    if (!(error instanceof TokencliError) || error.code !== 'store') throw error;
    // Whatever was read before the store failed is not the whole truth: all of it is unknown.
    Object.assign(status, {
      store_problem: error.message,
      logged_in: null,
      grant: null,
      access_token_expires_at: null,
      access_token_refused_at: null,
      refresh_token_expires_at: null,
      client_secret_stored: null,
    });
    return { status, record: undefined };
  }
}
