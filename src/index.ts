/**
 * `tokencli` as a library: what scripts get from `tokencli token` (cache, refresh, client
 * credentials, the per-profile lock, the same store and settings), without spawning a process.
 *
 * ```js
 * import { getToken } from 'tokencli';
 * const { accessToken, expiresAt } = await getToken({ profile: 'ci' });
 * await fetch('https://api.example.com/v2/…', { headers: { authorization: `Bearer ${accessToken}` } });
 * ```
 *
 * Settings resolve as options > environment (TOKENCLI_*) > the profile in the config file >
 * defaults (SPEC.md §2.1). Nothing here prompts: a secret that is not in the options, the
 * environment or the store is an error (code `usage`). Failures are `TokencliError`s with a stable
 * `code` (see `ErrorCode`); the CLI's wording of what to do is in `error.hint` where it has one.
 */

import { createDeps, type Deps, type DepsOverrides } from './cli/deps.js';
import { UsageError } from './errors.js';
import type { Transport } from './http/node-transport.js';
import type { TokenInfo, TokenSource } from './oauth/types.js';
import type { StoreKind, TokenRecord } from './store/types.js';

export {
  type ErrorCode,
  ExitCode,
  InputError,
  InterruptedError,
  NotLoggedInError,
  TokencliError,
  UsageError,
} from './errors.js';
export { NetworkError, type NetworkFailure } from './http/network-error.js';
export type { Transport, TransportRequest, TransportResponse } from './http/node-transport.js';
export { ServiceError } from './oauth/service-error.js';
export { requestToken } from './oauth/token-request.js';
export { fetchTokenInfo } from './oauth/tokeninfo.js';
export {
  type GrantRequest,
  GrantType,
  type HttpSettings,
  type ServiceClient,
  type TokenInfo,
  type TokenSet,
  type TokenSource,
} from './oauth/types.js';
export { openStore } from './store/open-store.js';
export type { CredentialStore, StoreKind, TokenRecord } from './store/types.js';

/** What every call accepts: the settings of SPEC.md §2.1 and the run's environment. */
export interface CommonOptions {
  /** Profile name (TOKENCLI_PROFILE, default "default"). */
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
  /** Receives warnings the CLI would print on stderr (a keychain fallback, a damaged store). */
  onWarning?: (line: string) => void;
  /** Carries the HTTP requests instead of node's client (tests, custom proxies). */
  transport?: Transport;
}

export interface GetTokenOptions extends CommonOptions {
  /** A cached token must have at least this many seconds left (default 60, `--min-ttl`). */
  minTtlSeconds?: number;
  /** Ignore the cached token (`--force`). */
  force?: boolean;
  /** User email for the client-credentials grant (TOKENCLI_EMAIL, or the profile's). */
  email?: string;
  /** User password for the client-credentials grant (else TOKENCLI_PASSWORD). */
  password?: string;
  /** Store a newly obtained token (default true; `--no-store`). */
  save?: boolean;
  /** Send `endOtherSessions=True` (SPEC.md §1 rule 10). */
  endOtherSessions?: boolean;
}

/** A valid access token and where it came from. */
export interface TokenResult {
  accessToken: string;
  /** As the service sent it (`Bearer`, RFC 6750; the platform says `BearerToken`). */
  tokenType: string;
  expiresAt: Date;
  email?: string;
  profile: string;
  /** `cache`, `refresh_token` or `client_credentials` (SPEC.md §2.3). */
  source: TokenSource;
}

function libraryDeps(options: CommonOptions, env: NodeJS.ProcessEnv, overrides: DepsOverrides = {}): Deps {
  const warn = options.onWarning ?? (() => {});
  let pending = '';
  // Lines the CLI writes on stderr (warnings only: `quiet` silences progress notes).
  const stderr = {
    write(chunk: string | Uint8Array) {
      pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        warn(pending.slice(0, end));
        pending = pending.slice(end + 1);
      }
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  return createDeps(
    {
      io: {
        stdout: { write: () => true },
        stderr: stderr as Deps['io']['stderr'],
        // Never read: nothing here prompts or takes a secret on stdin.
        get stdin(): Deps['io']['stdin'] {
          throw new Error('the library never reads stdin');
        },
        stdinIsTTY: false,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        env,
      },
      globals: {
        profile: options.profile,
        baseUrl: options.baseUrl,
        clientId: options.clientId,
        store: options.store,
        timeout: options.timeoutSeconds === undefined ? undefined : String(options.timeoutSeconds),
        caFile: options.caFile,
        verbose: false,
        quiet: false,
        color: false,
      },
      signal: options.signal ?? new AbortController().signal,
    },
    { ...overrides, http: options.transport ? { transport: options.transport } : undefined },
  );
}

/** The environment with the secrets given as options in the variables the CLI reads them from. */
function environment(options: CommonOptions & { password?: string }): NodeJS.ProcessEnv {
  const env = { ...(options.env ?? process.env) };
  if (options.clientSecret !== undefined) env.TOKENCLI_CLIENT_SECRET = options.clientSecret;
  if (options.password !== undefined) env.TOKENCLI_PASSWORD = options.password;
  return env;
}

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
 * A valid access token, by exactly `tokencli token`'s steps (SPEC.md §2.3): the cached token if
 * it has `minTtlSeconds` left; else, under the profile's lock, the stored refresh token
 * (RFC 6749 §6); else the client-credentials grant with email and password (SPEC.md §1); else
 * `NotLoggedInError` (code `not_logged_in`). Same store, cache and lock as the CLI, so a token
 * one obtains the other reuses.
 */
export async function getToken(options: GetTokenOptions = {}): Promise<TokenResult> {
  const minTtlSeconds = seconds('minTtlSeconds', options.minTtlSeconds, 60);
  const deps = libraryDeps(options, environment(options));
  const settings = await deps.settings({ email: options.email });
  const { getTokenSteps } = await import('./cli/obtain-token.js');
  const { record, source } = await getTokenSteps(deps, {
    minTtlSeconds,
    force: options.force === true,
    save: options.save !== false,
    endOtherSessions: options.endOtherSessions === true,
    passwordFromStdin: false,
    clientSecretFromStdin: false,
  });
  return tokenResult(record, settings.profile, source);
}

export interface GetTokenInfoOptions extends CommonOptions {
  /** The token to inspect; default the profile's stored access token. */
  accessToken?: string;
}

/**
 * The service's information about an access token (SPEC.md §1 rule 9: `status`, `expires_in`,
 * `email`, `app_name`, …), the stored one unless `accessToken` is given. An invalid, expired or
 * revoked token rejects with a `ServiceError` (code `service_refused`).
 */
export async function getTokenInfo(options: GetTokenInfoOptions = {}): Promise<TokenInfo> {
  const deps = libraryDeps(options, environment(options));
  const [settings, service] = await Promise.all([deps.settings(), deps.service()]);
  let accessToken = options.accessToken;
  if (accessToken === undefined) {
    const { recordMatches } = await import('./cli/token-record.js');
    const record = await (await deps.store()).getTokens(settings.profile);
    if (!recordMatches(record, service.baseUrl, service.clientId)) {
      const { NotLoggedInError } = await import('./errors.js');
      throw new NotLoggedInError(`no access token stored for profile "${settings.profile}"`);
    }
    accessToken = record.access_token;
    const { fetchTokenInfo } = await import('./oauth/tokeninfo.js');
    try {
      return await fetchTokenInfo(await deps.client(), accessToken, { signal: deps.signal });
    } catch (error) {
      // A refused cached token is dropped, so the next getToken renews it (issue 9 item 4).
      const { dropRefusedAccessToken, refusesAccessToken } = await import('./cli/stale-token.js');
      if (refusesAccessToken(error)) await dropRefusedAccessToken(deps, record);
      throw error;
    }
  }
  const { fetchTokenInfo } = await import('./oauth/tokeninfo.js');
  return fetchTokenInfo(await deps.client(), accessToken, { signal: deps.signal });
}

export interface LoginOptions extends CommonOptions {
  /** Opens the authorize URL; by default the system's browser (or BROWSER). Failures must not throw. */
  openBrowser?: (url: string) => Promise<unknown> | unknown;
  /** Loopback redirect URI (default http://127.0.0.1:8765/callback; port 0 = any free port). */
  redirectUri?: string;
  scope?: string;
  endOtherSessions?: boolean;
  /** How long to wait for the browser, in seconds (default 300, `--timeout-login`). */
  loginTimeoutSeconds?: number;
  /** Progress lines the CLI would print ("Waiting up to 300 s…"). */
  onInfo?: (line: string) => void;
}

/**
 * The browser login (authorization code + PKCE S256, SPEC.md §2.5; RFC 6749 §4.1, RFC 7636,
 * RFC 8252): listens on the loopback redirect URI, opens the authorize URL, exchanges the code the
 * moment it arrives and stores the tokens under the profile, as `tokencli login` does.
 */
export async function login(options: LoginOptions = {}): Promise<TokenResult> {
  const open = options.openBrowser;
  const deps = libraryDeps(
    options,
    environment(options),
    open ? { openBrowser: async (url) => open(url) } : {},
  );
  const { browserLogin } = await import('./cli/commands/login.js');
  const warn = options.onWarning ?? (() => {});
  const record = await browserLogin(
    deps,
    {
      redirectUri: options.redirectUri,
      scope: options.scope,
      endOtherSessions: options.endOtherSessions === true,
      timeoutMs: seconds('loginTimeoutSeconds', options.loginTimeoutSeconds, 300) * 1000,
      clientSecretFromStdin: false,
      openBrowser: true,
    },
    { showUrl: (url) => options.onInfo?.(url), info: (line) => options.onInfo?.(line), warn },
  );
  return tokenResult(record, (await deps.settings()).profile, 'authorization_code');
}
