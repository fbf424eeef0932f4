/**
 * Resolves every setting as flag > environment > profile in the config file > default
 * (SPEC.md §2.1). Pure reading and checking; nothing here touches the network or the store.
 */
import { ExitCode, TokencliError, UsageError } from '../errors.js';
import { isLoopbackHost } from '../protocol/loopback.js';
import type { StoreKind } from '../store/types.js';
import { type ConfigFile, configDirFrom, type ProfileConfig, readConfig } from './config-file.js';
import type { CommandContext } from './context.js';

export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:8765/callback';
const DEFAULT_TIMEOUT_SECONDS = 30;
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const STORE_KINDS: readonly StoreKind[] = ['keychain', 'file', 'none'];

/** Where the profile name came from (precedence of SPEC.md §2.1 and issue 9). */
export type ProfileSource = '--profile' | 'TOKENCLI_PROFILE' | 'active profile' | 'default';

/** A base URL or client id given for this run that differs from what the profile recorded. */
export interface ServiceOverride {
  setting: 'base URL' | 'client id';
  recorded: string;
  given: string;
  source: string;
}

export interface Settings {
  profile: string;
  profileSource: ProfileSource;
  /** Whether the config file has an entry for the profile. */
  profileExists: boolean;
  /**
   * The flags or environment variables that name another service than the profile recorded:
   * used for this run only; the profile's stored credentials are not used with them (issue 9).
   */
  overrides: ServiceOverride[];
  /** Where the store kind came from: a flag or variable (explicit), the profile, or nothing. */
  storeSource: 'explicit' | 'profile' | undefined;
  configDir: string;
  config: ConfigFile;
  /** No trailing slash; checked for https (or loopback http). */
  baseUrl: string | undefined;
  clientId: string | undefined;
  redirectUri: string;
  /** Whether the redirect URI was given (flag, variable, profile) rather than the default. */
  redirectUriGiven: boolean;
  email: string | undefined;
  storeKind: StoreKind | undefined;
  timeoutMs: number;
  caFile: string | undefined;
}

/** Flags of the running command that override settings (`--redirect-uri`, `--email`). */
export interface LocalOverrides {
  redirectUri?: string | undefined;
  email?: string | undefined;
}

export { isLoopbackHost };

/** `https://` required, except loopback hosts, which may use `http://` (SPEC.md §2.1). */
export function checkBaseUrl(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${source}: "${raw}" is not a URL`, 'use the form https://api.example.com');
  }
  if (url.username || url.password) {
    throw new UsageError(
      `${source}: credentials in the URL are not allowed`,
      'remove the user:password@ part',
    );
  }
  if (url.search || url.hash) {
    throw new UsageError(
      `${source}: the base URL must not carry a query or fragment`,
      'use the form https://api.example.com',
    );
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `${source}: plain http:// is refused for ${url.host}; tokens and secrets would cross the network unencrypted`,
      'use https://, or http:// only for a loopback address such as 127.0.0.1',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${source}: unsupported scheme ${url.protocol}`, 'use https://');
  }
  return url.href.replace(/\/+$/, '');
}

function parseTimeout(raw: string | number, source: string): number {
  const seconds = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(
      `${source}: "${raw}" is not a timeout in seconds`,
      'give a number of seconds between 1 and 3600',
    );
  }
  return Math.round(seconds * 1000);
}

function parseStore(raw: string, source: string): StoreKind {
  if (!(STORE_KINDS as readonly string[]).includes(raw)) {
    throw new UsageError(`${source}: unknown store "${raw}"`, 'use keychain, file or none');
  }
  return raw as StoreKind;
}

function pick<T>(...candidates: Array<[T | undefined, string]>): [T, string] | undefined {
  for (const candidate of candidates)
    if (candidate[0] !== undefined && candidate[0] !== '') return candidate as [T, string];
  return undefined;
}

export async function resolveSettings(ctx: CommandContext, local: LocalOverrides = {}): Promise<Settings> {
  const { globals, io } = ctx;
  const env = io.env;
  const configDir = configDirFrom(env);
  const config = await readConfig(configDir);
  // --profile > TOKENCLI_PROFILE > the active profile saved by `tokencli profile use` > default.
  const [profile, profileSource] = pick<string>(
    [globals.profile, '--profile'],
    [env.TOKENCLI_PROFILE, 'TOKENCLI_PROFILE'],
    [config.active_profile, 'active profile'],
  ) ?? ['default', 'default'];
  checkProfileName(profile);
  const stored: ProfileConfig = config.profiles[profile] ?? {};
  const inProfile = `profile "${profile}"`;

  const baseUrl = pick<string>(
    [globals.baseUrl, '--base-url'],
    [env.TOKENCLI_BASE_URL, 'TOKENCLI_BASE_URL'],
    [stored.base_url, `${inProfile} base_url`],
  );
  const storeKind = pick<string>(
    [globals.store, '--store'],
    [env.TOKENCLI_STORE, 'TOKENCLI_STORE'],
    [stored.store, `${inProfile} store`],
  );
  const timeout = pick<string | number>(
    [globals.timeout, '--timeout'],
    [env.TOKENCLI_TIMEOUT, 'TOKENCLI_TIMEOUT'],
    [stored.timeout, `${inProfile} timeout`],
  );

  const clientId = pick<string>(
    [globals.clientId, '--client-id'],
    [env.TOKENCLI_CLIENT_ID, 'TOKENCLI_CLIENT_ID'],
    [stored.client_id, `${inProfile} client_id`],
  );
  const checkedBaseUrl = baseUrl && checkBaseUrl(baseUrl[0], baseUrl[1]);
  const overrides: ServiceOverride[] = [];
  if (checkedBaseUrl && stored.base_url && baseUrl[1] !== `${inProfile} base_url`) {
    // Compared in the same normal form (URL parsing: host case, default port, trailing slash).
    let recorded = stored.base_url.replace(/\/+$/, '');
    try {
      recorded = new URL(stored.base_url).href.replace(/\/+$/, '');
    } catch {}
    if (recorded !== checkedBaseUrl)
      overrides.push({ setting: 'base URL', recorded, given: checkedBaseUrl, source: baseUrl[1] });
  }
  if (clientId && stored.client_id && clientId[1] !== `${inProfile} client_id`) {
    if (clientId[0] !== stored.client_id)
      overrides.push({
        setting: 'client id',
        recorded: stored.client_id,
        given: clientId[0],
        source: clientId[1],
      });
  }

  return {
    profile,
    profileSource: profileSource as ProfileSource,
    profileExists: Object.hasOwn(config.profiles, profile),
    overrides,
    storeSource:
      storeKind === undefined ? undefined : storeKind[1] === `${inProfile} store` ? 'profile' : 'explicit',
    configDir,
    config,
    baseUrl: checkedBaseUrl,
    clientId: clientId?.[0],
    redirectUri:
      local.redirectUri || env.TOKENCLI_REDIRECT_URI || stored.redirect_uri || DEFAULT_REDIRECT_URI,
    redirectUriGiven: Boolean(local.redirectUri || env.TOKENCLI_REDIRECT_URI || stored.redirect_uri),
    email: local.email || env.TOKENCLI_EMAIL || stored.email || undefined,
    storeKind: storeKind && parseStore(storeKind[0], storeKind[1]),
    timeoutMs: timeout ? parseTimeout(timeout[0], timeout[1]) : DEFAULT_TIMEOUT_SECONDS * 1000,
    caFile: globals.caFile || stored.ca_file || undefined,
  };
}

/** Profile names are file names (lock files) and keychain account names: keep them plain. */
export function checkProfileName(profile: string): void {
  if (!PROFILE_NAME.test(profile)) {
    throw new UsageError(
      `invalid profile name "${profile}"`,
      'use letters, digits, ".", "_" and "-" (at most 64)',
    );
  }
}

/**
 * A profile named on purpose (--profile, TOKENCLI_PROFILE, the active profile) that the config
 * file does not know, with nothing given to stand in for it: a usage error listing the profiles
 * there are and the nearest name (issue 9), rather than "no base URL".
 */
export function noSuchProfile(settings: Settings): TokencliError {
  const names = Object.keys(settings.config.profiles).sort();
  const via = settings.profileSource === 'default' ? '' : ` (from ${settings.profileSource})`;
  // The hint (the list and the nearest name) is worded by error-hints.ts, loaded only on failure.
  return new TokencliError(`no profile "${settings.profile}"${via}`, {
    exitCode: ExitCode.usage,
    reason: 'no_such_profile',
    details: { profile: settings.profile, names: names.join('\n') },
  });
}

/** The service coordinates every network command needs, or a usage error saying how to give them. */
export function requireService(settings: Settings): { baseUrl: string; clientId: string } {
  if (
    !settings.baseUrl &&
    !settings.clientId &&
    !settings.profileExists &&
    settings.profileSource !== 'default'
  ) {
    throw noSuchProfile(settings);
  }
  if (!settings.baseUrl && !settings.clientId) {
    throw new UsageError(
      `no base URL for profile "${settings.profile}" (and no client id): ${settings.profileExists ? 'the profile is' : 'tokencli is'} not configured`,
      'pass --base-url and --client-id once (or set TOKENCLI_BASE_URL and TOKENCLI_CLIENT_ID): the profile remembers them; or run `tokencli configure`',
    );
  }
  if (!settings.baseUrl) {
    throw new UsageError(
      `no base URL for profile "${settings.profile}"`,
      'pass --base-url, set TOKENCLI_BASE_URL, or run `tokencli configure`',
    );
  }
  if (!settings.clientId) {
    throw new UsageError(
      `no client id for profile "${settings.profile}"`,
      'pass --client-id, set TOKENCLI_CLIENT_ID, or run `tokencli configure`',
    );
  }
  return { baseUrl: settings.baseUrl, clientId: settings.clientId };
}
