/**
 * `tokencli` as a library: what scripts get from `tokencli token` (cache, refresh, client
 * credentials, the per-profile lock, the same store and settings), without spawning a process.
 *
 * ```js
 * import { TokenClient } from 'tokencli';
 * const client = new TokenClient({ profile: 'ci' });
 * const { accessToken } = await client.getToken(); // cached after the first call
 * await fetch('https://api.example.com/v2/…', { headers: { authorization: `Bearer ${accessToken}` } });
 * ```
 *
 * A `TokenClient` resolves its settings once and opens the credential store once, on first use,
 * and keeps both for its life; `getToken(options)`, `getTokenInfo(options)` and `login(options)`
 * are one-call conveniences over a new client each.
 *
 * Settings resolve as options > environment (the `env` option, default `process.env`) > the
 * profile in the config file > defaults (docs/contract.md §2.1). Nothing here prompts: a secret that is not
 * in the options or the store is an error. Failures are `TokencliError`s with a stable `code`
 * (`ErrorCode`) and, where there is more to say, a `reason` (`ErrorReason`, a closed list) and
 * `details` (a list is an array); messages name this API's options (`baseUrl`, `profile`, `store`,
 * …). A bad setting is a `SettingError` saying which setting and where its value came from
 * (`setting`, `origin`).
 * Warnings and progress (a keychain fallback, the login URL) arrive as `SessionEvent`s through
 * `onEvent`.
 */

import { createHash } from 'node:crypto';
import { UsageError } from './errors.js';
import type { Transport } from './http/node-transport.js';
import type { TokenInfo, TokenSource } from './oauth/types.js';
import { SETTING_VARIABLES } from './session/environment.js';
import type { EventSink } from './session/events.js';
import { givenSecrets } from './session/secret-source.js';
import { Session, type SessionOptions } from './session/session.js';
import type { StoreKind, TokenRecord } from './store/types.js';
import { withoutTrailingSlashes } from './text/trailing-slashes.js';

export {
  type ErrorCode,
  type ErrorDetails,
  type ErrorDetailValue,
  type ErrorReason,
  ExitCode,
  InputError,
  InterruptedError,
  NotLoggedInError,
  TokencliError,
  UsageError,
} from './errors.js';
export { NetworkError, type NetworkFailure } from './http/network-error.js';
export type { Transport, TransportRequest, TransportResponse } from './http/node-transport.js';
export type { HttpSettings } from './http/settings.js';
export { ServiceError } from './oauth/service-error.js';
export { requestToken } from './oauth/token-request.js';
export { fetchTokenInfo } from './oauth/tokeninfo.js';
export type {
  GrantRequest,
  ServiceClient,
  TokenInfo,
  TokenSet,
  TokenSource,
} from './oauth/types.js';
export { GrantType } from './protocol/grants.js';
export type { SessionEvent, SessionEventCode } from './session/events.js';
export { SettingError, type SettingName, type SettingOrigin } from './session/setting-error.js';
export { openStore } from './store/open-store.js';
export type { CredentialStore, StoreKind, TokenRecord } from './store/types.js';

/** What every call accepts: the settings of docs/contract.md §2.1 and the run's environment. */
export interface CommonOptions {
  /**
   * Profile name (TOKENCLI_PROFILE, then the active profile, then "default"). Left out while
   * `baseUrl` and `clientId` are given, the client has a profile of its own for that service
   * (`service-` and a hash of the two): no profile the user made active is read, and its tokens
   * are kept in memory for the client's life (under that name in `store` when one is given).
   */
  profile?: string;
  /** Token service base URL (TOKENCLI_BASE_URL, or the profile's). */
  baseUrl?: string;
  /** Client id (TOKENCLI_CLIENT_ID, or the profile's). */
  clientId?: string;
  /** Client secret; else TOKENCLI_CLIENT_SECRET, else the one stored by `tokencli configure`. */
  clientSecret?: string;
  /** Credential store (TOKENCLI_STORE, the profile's, or the keychain with a file fallback). */
  store?: StoreKind;
  /** HTTP timeout per attempt in seconds (TOKENCLI_TIMEOUT, default 30). */
  timeoutSeconds?: number;
  /** Extra CA certificates (PEM) to trust besides the system ones. */
  caFile?: string;
  /** The environment to read TOKENCLI_* and the config directory from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Cancels waits and requests; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Receives warnings and progress as structured events (`store_fallback`, `store_warning`,
   * `service_override`, `min_ttl_too_long`, `refresh_refused`, `login_url`, `login_waiting`,
   * `login_received`, `login_progress`, `login_warning`, `authorize_check_inconclusive`,
   * `client_secret_not_stored`; see `SessionEvent`).
   */
  onEvent?: EventSink;
  /** Carries the HTTP requests instead of node's client (tests, custom proxies). */
  transport?: Transport;
}

/** What a `TokenClient` is built with: the settings, the secrets and the hooks of its session. */
export interface TokenClientOptions extends CommonOptions {
  /**
   * User email for the client-credentials grant (else TOKENCLI_EMAIL, the profile's, then — with a
   * password — the one the stored token was issued to).
   */
  email?: string;
  /** User password for the client-credentials grant (else TOKENCLI_PASSWORD). */
  password?: string;
  /** Loopback redirect URI of `login` (default http://127.0.0.1:8765/callback; port 0 = any free port). */
  redirectUri?: string;
  /** Opens the authorize URL of `login`; by default the system's browser (or BROWSER). Must not throw. */
  openBrowser?: (url: string) => Promise<unknown> | unknown;
}

/** What one `getToken` call may ask for. */
export interface GetTokenCallOptions {
  /** A cached token must have at least this many seconds left (default 60). */
  minTtlSeconds?: number;
  /** Ignore the cached token. */
  force?: boolean;
  /** Store a newly obtained token (default true). */
  save?: boolean;
  /** Send `endOtherSessions=True` (docs/contract.md §1 rule 10). */
  endOtherSessions?: boolean;
}

export interface GetTokenOptions extends TokenClientOptions, GetTokenCallOptions {}

/** A valid access token and where it came from. */
export interface TokenResult {
  accessToken: string;
  /** As the service sent it (`Bearer`, RFC 6750; the platform says `BearerToken`). */
  tokenType: string;
  expiresAt: Date;
  email?: string;
  profile: string;
  /** `cache`, `refresh_token` or `client_credentials` (docs/contract.md §2.3). */
  source: TokenSource;
}

export interface GetTokenInfoCallOptions {
  /** The token to inspect; default the profile's stored access token. */
  accessToken?: string;
}

export interface GetTokenInfoOptions extends TokenClientOptions, GetTokenInfoCallOptions {}

export interface LoginCallOptions {
  scope?: string;
  endOtherSessions?: boolean;
  /** How long to wait for the browser, in seconds (default 300). */
  loginTimeoutSeconds?: number;
  /**
   * Cancels this login (as the client's `signal` does all its calls): the wait ends, the listener
   * closes, nothing is stored, and the call rejects with code `interrupted`.
   */
  signal?: AbortSignal;
}

export interface LoginOptions extends TokenClientOptions, LoginCallOptions {}

function tokenResult(record: TokenRecord, profile: string, source: TokenSource): TokenResult {
  const result: TokenResult = {
    accessToken: record.access_token,
    tokenType: record.token_type,
    expiresAt: new Date(record.expires_at),
    profile,
    source,
  };
  if (record.email !== undefined) result.email = record.email;
  return result;
}

/**
 * A number-of-seconds option, checked here because JavaScript callers get no type check: NaN or a
 * string would otherwise make every cached token look stale (or a login wait at once).
 */
function seconds(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw new UsageError(
    `${name}: ${typeof value === 'string' ? JSON.stringify(value) : String(value)} is not a number of seconds (0 or more)`,
  );
}

/**
 * The profile of a client that names its service (`baseUrl` and `clientId`) and no profile: one of
 * its own, named after that service, so that nothing comes from the profile the user made active
 * for the CLI (or TOKENCLI_PROFILE) — whose base URL, if another, would make every token one the
 * session may not keep. Its tokens live in memory for the client's life unless `store` is given;
 * then they are kept under this name, which the same service always gets again.
 */
function serviceProfile(options: TokenClientOptions): string | undefined {
  if (options.profile !== undefined || !options.baseUrl || !options.clientId) return undefined;
  const service = `${withoutTrailingSlashes(options.baseUrl.trim())}\n${options.clientId}`;
  return `service-${createHash('sha256').update(service).digest('hex').slice(0, 12)}`;
}

/** The session a client stands on, from its options. */
function sessionOf(options: TokenClientOptions): Session {
  const open = options.openBrowser;
  const ownProfile = serviceProfile(options);
  const sessionOptions: SessionOptions = {
    profile: ownProfile ?? options.profile,
    baseUrl: options.baseUrl,
    clientId: options.clientId,
    store: ownProfile !== undefined ? (options.store ?? 'none') : options.store,
    timeoutSeconds: options.timeoutSeconds,
    caFile: options.caFile,
    email: options.email,
    redirectUri: options.redirectUri,
    env: options.env,
    signal: options.signal,
    onEvent: options.onEvent,
    http: options.transport ? { transport: options.transport } : undefined,
    openBrowser: open ? async (url) => open(url) : undefined,
  };
  return new Session(sessionOptions);
}

/**
 * A token client bound to one profile's settings: resolved once, on first use, from the options
 * and the environment; the credential store is opened once and kept for the client's life.
 */
export class TokenClient {
  readonly #session: Session;
  readonly #options: TokenClientOptions;

  constructor(options: TokenClientOptions = {}) {
    this.#options = options;
    this.#session = sessionOf(options);
  }

  /** The profile this client's settings name. */
  async profile(): Promise<string> {
    return (await this.#session.settings()).profile;
  }

  /** Options first, then the environment (read, never written): nothing is ever prompted for. */
  #secrets() {
    const env = this.#options.env ?? process.env;
    return givenSecrets({
      clientSecret: this.#options.clientSecret ?? (env[SETTING_VARIABLES.clientSecret] || undefined),
      password: this.#options.password ?? (env[SETTING_VARIABLES.password] || undefined),
    });
  }

  /**
   * A valid access token, by exactly `tokencli token`'s steps (docs/contract.md §2.3): the cached token if
   * it has `minTtlSeconds` left; else, under the profile's lock, the stored refresh token
   * (RFC 6749 §6); else the client-credentials grant with email and password (docs/contract.md §1); else
   * `NotLoggedInError` (code `not_logged_in`). Same store, cache and lock as the CLI, so a token
   * one obtains the other reuses.
   */
  async getToken(options: GetTokenCallOptions = {}): Promise<TokenResult> {
    const minTtlSeconds = seconds('minTtlSeconds', options.minTtlSeconds, 60);
    const { getToken } = await import('./session/token-steps.js');
    const { record, source } = await getToken(
      this.#session,
      {
        minTtlSeconds,
        force: options.force === true,
        save: options.save !== false,
        endOtherSessions: options.endOtherSessions === true,
      },
      this.#secrets(),
    );
    return tokenResult(record, await this.profile(), source);
  }

  /**
   * The service's information about an access token (docs/contract.md §1 rule 9: `status`, `expires_in`,
   * `email`, `app_name`, …), the stored one unless `accessToken` is given. An invalid, expired or
   * revoked token rejects with a `ServiceError` (code `service_refused`); a refused stored token
   * is dropped from the cache first (reason `access_token_refused`), so the next `getToken` renews it.
   */
  async getTokenInfo(options: GetTokenInfoCallOptions = {}): Promise<TokenInfo> {
    const { inspectToken } = await import('./session/inspect.js');
    return inspectToken(this.#session, options.accessToken);
  }

  /**
   * The browser login (authorization code + PKCE S256, docs/contract.md §2.5; RFC 6749 §4.1, RFC 7636,
   * RFC 8252): listens on the loopback redirect URI, opens the authorize URL (`openBrowser`, and
   * a `login_url` event), waits (`login_waiting`), exchanges the code the moment it arrives
   * (`login_received`) and stores the tokens under the profile, as `tokencli login` does. The
   * wait ends early, closing the listener, when `signal` (or the client's) is aborted: the call
   * then rejects with code `interrupted` and nothing is stored. The authorize URL is checked with
   * one GET first: a service that cannot be reached (`NetworkError`) or refuses the request
   * (`ServiceError`) rejects at once rather than after the wait.
   */
  async login(options: LoginCallOptions = {}): Promise<TokenResult> {
    const timeoutMs = seconds('loginTimeoutSeconds', options.loginTimeoutSeconds, 300) * 1000;
    const { browserLogin } = await import('./session/login.js');
    const { record } = await browserLogin(
      this.#session,
      {
        scope: options.scope,
        endOtherSessions: options.endOtherSessions === true,
        timeoutMs,
        openBrowser: true,
        signal: options.signal,
      },
      this.#secrets(),
    );
    return tokenResult(record, await this.profile(), 'authorization_code');
  }
}

/** `new TokenClient(options).getToken(options)`: for one call. */
export function getToken(options: GetTokenOptions = {}): Promise<TokenResult> {
  return new TokenClient(options).getToken(options);
}

/** `new TokenClient(options).getTokenInfo(options)`: for one call. */
export function getTokenInfo(options: GetTokenInfoOptions = {}): Promise<TokenInfo> {
  return new TokenClient(options).getTokenInfo(options);
}

/** `new TokenClient(options).login(options)`: for one call. */
export function login(options: LoginOptions = {}): Promise<TokenResult> {
  return new TokenClient(options).login(options);
}
