/**
 * Resolves every setting as option > environment > profile in the config file > default
 * (docs/contract.md §2.1), from typed options and an environment object. Pure reading and
 * checking; nothing here touches the network or the store, prints, or names a CLI flag.
 */
import { TokencliError } from '../errors.js';
import { isLoopbackHost } from '../protocol/loopback.js';
import type { StoreKind } from '../store/types.js';
import { withoutTrailingSlashes } from '../text/trailing-slashes.js';
import { type ConfigFile, configDirFrom, type ProfileConfig, readConfig } from './config-file.js';
import { SETTING_VARIABLES } from './environment.js';
import { SettingError, type SettingOrigin } from './setting-error.js';

export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:8765/callback';
const DEFAULT_TIMEOUT_SECONDS = 30;
const STORE_KINDS: readonly StoreKind[] = ['keychain', 'file', 'none'];

/** The settings a caller may give for one session (each else from the environment or profile). */
export interface SettingOptions {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  clientId?: string | undefined;
  store?: string | undefined;
  /** Seconds per HTTP attempt; the CLI passes its flag's text, the library a number. */
  timeoutSeconds?: number | string | undefined;
  caFile?: string | undefined;
  email?: string | undefined;
  redirectUri?: string | undefined;
}

/** Where the profile name came from. */
export type ProfileSource = 'option' | 'environment' | 'active profile' | 'default';

/** A base URL or client id given for this session that differs from what the profile recorded. */
export interface ServiceOverride {
  setting: 'baseUrl' | 'clientId';
  recorded: string;
  given: string;
  origin: SettingOrigin;
}

export interface Settings {
  profile: string;
  profileSource: ProfileSource;
  /** Whether the config file has an entry for the profile. */
  profileExists: boolean;
  /**
   * The options or environment variables that name another service than the profile recorded:
   * used for this session only; the profile's stored credentials are not used with them.
   */
  overrides: ServiceOverride[];
  /** Where the store kind came from: an option or variable (explicit), the profile, or nothing. */
  storeSource: 'explicit' | 'profile' | undefined;
  configDir: string;
  config: ConfigFile;
  /** No trailing slash; checked for https (or loopback http). */
  baseUrl: string | undefined;
  clientId: string | undefined;
  redirectUri: string;
  /** Whether the redirect URI was given (option, variable, profile) rather than the default. */
  redirectUriGiven: boolean;
  email: string | undefined;
  storeKind: StoreKind | undefined;
  timeoutMs: number;
  caFile: string | undefined;
}

/** Base URL (no trailing slash) and client id of the service a session talks to. */
export interface ServiceCoordinates {
  baseUrl: string;
  clientId: string;
}

const OPTION: SettingOrigin = { kind: 'option' };

/** "localhost:8080" parses as a URL whose scheme is `localhost:`: say which URL was meant. */
function schemeIsHost(url: URL, raw: string): string | undefined {
  if (!/^[A-Za-z0-9.-]+:\d+(\/.*)?$/.test(raw)) return undefined;
  const host = url.protocol.slice(0, -1);
  return isLoopbackHost(host) ? `http://${raw}` : `https://${raw}`;
}

/** `https://` required, except loopback hosts, which may use `http://` (docs/contract.md §2.1). */
export function checkBaseUrl(raw: string, origin: SettingOrigin = OPTION): string {
  const refuse = (problem: string, hint?: string) => new SettingError('baseUrl', origin, problem, hint);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(`"${raw}" is not a URL`, 'use the form https://api.example.com');
  }
  if (url.username || url.password) {
    throw refuse('credentials in the URL are not allowed', 'remove the user:password@ part');
  }
  if (url.search || url.hash) {
    throw refuse('the base URL must not carry a query or fragment', 'use the form https://api.example.com');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw refuse(
      `plain http:// is refused for ${url.host}; tokens and secrets would cross the network unencrypted`,
      'use https://, or http:// only for a loopback address such as 127.0.0.1',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    const meant = schemeIsHost(url, raw);
    throw refuse(
      `unsupported scheme ${url.protocol}`,
      meant ? `a URL starts with its scheme: use ${meant}` : 'use https://',
    );
  }
  return withoutTrailingSlashes(url.href);
}

function parseTimeout(raw: string | number, origin: SettingOrigin): number {
  const seconds = typeof raw === 'number' ? raw : Number(raw);
  // Below one second is refused, not rounded: 0.0001 would become a 0 ms timeout, failing every request.
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) {
    throw new SettingError(
      'timeoutSeconds',
      origin,
      `"${raw}" is not a timeout in seconds`,
      'give a number of seconds between 1 and 3600',
    );
  }
  return Math.round(seconds * 1000);
}

function parseStore(raw: string, origin: SettingOrigin): StoreKind {
  if (!(STORE_KINDS as readonly string[]).includes(raw)) {
    throw new SettingError('store', origin, `unknown store "${raw}"`, 'use keychain, file or none');
  }
  return raw as StoreKind;
}

type Candidate<T> = [T | undefined, SettingOrigin];

function pick<T>(...candidates: Array<Candidate<T>>): [T, SettingOrigin] | undefined {
  for (const candidate of candidates)
    if (candidate[0] !== undefined && candidate[0] !== '') return candidate as [T, SettingOrigin];
  return undefined;
}

/** The option, then the environment variable, then the profile's key. */
function layered<T>(
  option: T | undefined,
  env: NodeJS.ProcessEnv,
  variable: string,
  profile: string,
  stored: ProfileConfig,
  key: keyof ProfileConfig,
): [T, SettingOrigin] | undefined {
  return pick<T>(
    [option, OPTION],
    [env[variable] as T | undefined, { kind: 'environment', variable }],
    [stored[key] as T | undefined, { kind: 'profile', profile, key }],
  );
}

/** The profile's recorded base URL in the same normal form as a checked one. */
function normalBaseUrl(raw: string): string {
  try {
    return withoutTrailingSlashes(new URL(raw).href);
  } catch {
    return withoutTrailingSlashes(raw);
  }
}

function chooseProfile(
  options: SettingOptions,
  env: NodeJS.ProcessEnv,
  config: ConfigFile,
): [string, ProfileSource] {
  // An empty name given on purpose is a mistake (an unset shell variable), not "the default".
  if (options.profile === '') {
    throw new TokencliError('profile: the profile name is empty', {
      code: 'usage',
      reason: 'profile_name_empty',
      details: { setting: 'profile', origin: 'option' },
    });
  }
  if (options.profile !== undefined) return [options.profile, 'option'];
  const fromEnv = env[SETTING_VARIABLES.profile];
  if (fromEnv) return [fromEnv, 'environment'];
  if (config.active_profile) return [config.active_profile, 'active profile'];
  return ['default', 'default'];
}

/**
 * The active profile: the one a command given no profile option uses here (the variable, else the
 * config file's active profile, else "default"), whichever profile this run was given.
 */
export function activeProfileOf(settings: Pick<Settings, 'config'>, env: NodeJS.ProcessEnv): string {
  return chooseProfile({}, env, settings.config)[0];
}

export async function resolveSettings(options: SettingOptions, env: NodeJS.ProcessEnv): Promise<Settings> {
  const configDir = configDirFrom(env);
  const config = await readConfig(configDir);
  const [profile, profileSource] = chooseProfile(options, env, config);
  checkProfileName(profile);
  const stored: ProfileConfig = config.profiles[profile] ?? {};
  const from = <T>(option: T | undefined, variable: string, key: keyof ProfileConfig) =>
    layered<T>(option, env, variable, profile, stored, key);

  // An empty flag given on purpose is a mistake (an unset shell variable), not "not given": taken
  // as absent it would silently fall through to the profile's value, or to none.
  for (const setting of ['baseUrl', 'clientId'] as const) {
    if (options[setting] === '') {
      throw new SettingError(setting, OPTION, 'the value is empty', 'give the value, or leave out the flag');
    }
  }
  const vars = SETTING_VARIABLES;
  const baseUrl = from<string>(options.baseUrl, vars.baseUrl, 'base_url');
  const storeKind = from<string>(options.store, vars.store, 'store');
  const timeout = from<string | number>(options.timeoutSeconds, vars.timeoutSeconds, 'timeout');
  const clientId = from<string>(options.clientId, vars.clientId, 'client_id');
  const checkedBaseUrl = baseUrl && checkBaseUrl(baseUrl[0], baseUrl[1]);

  const overrides: ServiceOverride[] = [];
  if (checkedBaseUrl && stored.base_url && baseUrl[1].kind !== 'profile') {
    const recorded = normalBaseUrl(stored.base_url);
    if (recorded !== checkedBaseUrl)
      overrides.push({ setting: 'baseUrl', recorded, given: checkedBaseUrl, origin: baseUrl[1] });
  }
  if (clientId && stored.client_id && clientId[1].kind !== 'profile' && clientId[0] !== stored.client_id) {
    overrides.push({
      setting: 'clientId',
      recorded: stored.client_id,
      given: clientId[0],
      origin: clientId[1],
    });
  }

  const redirectUri = options.redirectUri || env[SETTING_VARIABLES.redirectUri] || stored.redirect_uri;
  return {
    profile,
    profileSource,
    profileExists: Object.hasOwn(config.profiles, profile),
    overrides,
    storeSource:
      storeKind === undefined ? undefined : storeKind[1].kind === 'profile' ? 'profile' : 'explicit',
    configDir,
    config,
    baseUrl: checkedBaseUrl,
    clientId: clientId?.[0],
    redirectUri: redirectUri || DEFAULT_REDIRECT_URI,
    redirectUriGiven: Boolean(redirectUri),
    email: options.email || env[SETTING_VARIABLES.email] || stored.email || undefined,
    storeKind: storeKind && parseStore(storeKind[0], storeKind[1]),
    timeoutMs: timeout ? parseTimeout(timeout[0], timeout[1]) : DEFAULT_TIMEOUT_SECONDS * 1000,
    caFile: options.caFile || stored.ca_file || undefined,
  };
}

/** Profile names are file names (lock files) and keychain account names: keep them plain. */
export function checkProfileName(profile: string): void {
  if (!isProfileName(profile)) {
    throw new TokencliError(`invalid profile name "${profile}"`, {
      code: 'usage',
      hint: 'use letters, digits, ".", "_" and "-" (at most 64)',
    });
  }
}

/**
 * One to 64 characters: ASCII letters and digits, then also ".", "_" and "-" (what
 * `/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/` matches). Written out rather than as a regular expression,
 * which V8 would compile on every run: every cached `tokencli token` checks its profile's name
 * (bench/README.md, Decisions).
 */
function isProfileName(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    const alphanumeric =
      (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
    // ".", "_", "-" anywhere but first.
    if (!alphanumeric && (i === 0 || (code !== 0x2e && code !== 0x5f && code !== 0x2d))) return false;
  }
  return true;
}

/**
 * A profile named on purpose (option, environment, the active profile) that the config file does
 * not know, with nothing given to stand in for it: an error listing the profiles there are
 * (details `names`, an array) rather than "no base URL".
 */
export function noSuchProfile(settings: Settings): TokencliError {
  const names = Object.keys(settings.config.profiles).sort();
  const via =
    settings.profileSource === 'default'
      ? ''
      : settings.profileSource === 'option'
        ? ' (from the profile option)'
        : settings.profileSource === 'environment'
          ? ' (from the environment)'
          : ' (from active profile)';
  return new TokencliError(`no profile "${settings.profile}"${via}`, {
    code: 'usage',
    reason: 'no_such_profile',
    details: { profile: settings.profile, names, source: settings.profileSource },
  });
}

/** The service coordinates every network operation needs, or an error saying which are missing. */
export function requireService(settings: Settings): ServiceCoordinates {
  if (
    !settings.baseUrl &&
    !settings.clientId &&
    !settings.profileExists &&
    settings.profileSource !== 'default'
  ) {
    throw noSuchProfile(settings);
  }
  const details = { profile: settings.profile, profileExists: settings.profileExists ? 1 : 0 };
  if (!settings.baseUrl && !settings.clientId) {
    throw new TokencliError(
      `no base URL for profile "${settings.profile}" (and no client id): ${settings.profileExists ? 'the profile is' : 'tokencli is'} not configured`,
      { code: 'usage', reason: 'not_configured', details },
    );
  }
  if (!settings.baseUrl) {
    throw new TokencliError(`no base URL for profile "${settings.profile}"`, {
      code: 'usage',
      reason: 'base_url_missing',
      details,
    });
  }
  if (!settings.clientId) {
    throw new TokencliError(`no client id for profile "${settings.profile}"`, {
      code: 'usage',
      reason: 'client_id_missing',
      details,
    });
  }
  return { baseUrl: settings.baseUrl, clientId: settings.clientId };
}
