/**
 * The errors every layer throws for expected failures. Each has a stable string `code` a program
 * can branch on (the library's contract, see src/index.ts) and, where there is more to say, a
 * `reason` from a closed list with structured `details`. Exit codes are the CLI's choice, made from
 * code and reason in src/cli/output/exit-codes.ts (`ExitCode` is here for the CLI, the service and tests).
 *
 * Layers below `src/cli/` never print and never name a CLI flag or environment variable: they say
 * what went wrong (`code`, a finer `reason`, structured `details`), and `src/cli/output/error-hints.ts`
 * turns that into the `hint:` line a person at a terminal can act on. Only `src/cli/main.ts` turns
 * an error into output and an exit code.
 */

/** Exit codes of docs/contract.md §2.6. */
export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  refused: 3,
  notLoggedIn: 4,
  unavailable: 5,
  loginIncomplete: 6,
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * What kind of failure it is; stable across releases.
 *
 * - `usage`: bad input from the caller (a malformed base URL, a missing setting, an unreadable file).
 * - `config`: the local token service's configuration is invalid or its address cannot be bound.
 * - `not_logged_in`: nothing usable is stored (no token, no refresh token, refresh token expired).
 * - `service_refused`: the token service refused what was sent (4xx: credentials, grant, code, token).
 * - `service_unavailable`: the service failed (5xx), redirected, or answered something unexpected.
 * - `network`: no usable HTTP response arrived (connect, DNS, TLS, timeout, proxy, broken connection).
 * - `login_incomplete`: the browser login was not finished (denied, timed out).
 * - `store`: the credential store cannot be used or failed.
 * - `lock`: the per-profile lock could not be had.
 * - `interrupted`: Ctrl-C, or the caller's AbortSignal.
 * - `internal`: anything else expected enough to be worded.
 */
export type ErrorCode =
  | 'usage'
  | 'config'
  | 'not_logged_in'
  | 'service_refused'
  | 'service_unavailable'
  | 'network'
  | 'login_incomplete'
  | 'store'
  | 'lock'
  | 'interrupted'
  | 'internal';

/**
 * The finer, stable name of a failure within its code: a closed list, so a program (and the CLI's
 * hint table, src/cli/output/error-hints.ts) can branch on it and a misspelt one is a type error.
 */
export type ErrorReason =
  // Settings and input (code `usage`).
  | 'setting_invalid'
  | 'profile_name_empty'
  | 'no_such_profile'
  | 'not_configured'
  | 'base_url_missing'
  | 'client_id_missing'
  | 'client_secret_missing'
  | 'password_missing'
  | 'email_missing'
  | 'base_url_invalid'
  | 'redirect_uri_invalid'
  | 'ca_file_unreadable'
  | 'ca_file_not_pem'
  | 'access_token_malformed'
  | 'sign_cert_has_private_key'
  | 'sign_cert_mismatch'
  | 'assertion_already_signed'
  | 'store_unknown'
  | 'config_invalid'
  // Credentials (code `not_logged_in`).
  | 'no_token'
  | 'other_service'
  | 'refresh_token_expired'
  | 'access_token_expired'
  | 'access_token_revoked'
  | 'cannot_renew'
  | 'min_ttl_unmet'
  | 'no_refresh_token'
  | 'no_access_token'
  | 'access_token_refused'
  | 'status_check_failed'
  // The store and the lock.
  | 'keychain_unavailable'
  | 'keychain_timeout'
  | 'keychain_failed'
  | 'file_store_damaged'
  | 'config_dir_symlink'
  | 'profile_store_unreachable'
  | 'lock_timeout'
  | 'lock_unwritable'
  // Login.
  | 'listen_failed'
  | 'login_timeout'
  | 'access_denied'
  // The service's answers (ServiceError) and the wire (NetworkError).
  | 'unexpected_response'
  | 'redirect'
  | 'bad_lifetime'
  | 'bad_token_type'
  | 'bad_token_value'
  | 'timeout'
  | 'connect'
  | 'dns'
  | 'reset'
  | 'proxy'
  | 'too_large'
  | 'other'
  | 'tls_untrusted'
  | 'tls_clock'
  | 'tls_hostname'
  | 'tls_handshake'
  | 'not_http'
  // The local token service (tokencli serve).
  | 'config_unreadable'
  // An invalid configuration: `details` name the document that describes its format (`doc`, a
  // file of the package's docs/, and `section`), not where it is: the library cannot know that.
  | 'service_config_invalid'
  | 'listen_in_use'
  | 'listen_denied'
  | 'listen_not_local'
  | 'control_not_loopback';

/**
 * One value of an error's `details`: a word, a number, or a list of words (the profiles there are,
 * …) as an array, so a program reads the items without splitting a string.
 */
export type ErrorDetailValue = string | number | readonly string[] | undefined;

/** The structured `details` of an error: stable keys, documented with each `reason`. */
export type ErrorDetails = Readonly<Record<string, ErrorDetailValue>>;

export interface TokencliErrorOptions {
  /** What kind of failure it is (see ErrorCode); the CLI chooses the exit code from it. */
  code: ErrorCode;
  /**
   * A finer, stable name of the failure within its code (`port_in_use`, `ca_file_missing`, …), with
   * `details`, for the CLI's hint table and for programs that need more than the code.
   */
  reason?: ErrorReason | undefined;
  details?: ErrorDetails | undefined;
  /**
   * What the user can do about it; printed as `hint: …`. Set only by `src/cli/` (and by lower
   * layers only where it names no CLI flag or variable); otherwise the CLI's table supplies it.
   */
  hint?: string | undefined;
  cause?: unknown;
}

/**
 * What every TokencliError carries, whichever copy of this module made it: the launcher's light
 * bundles each carry their own copy (scripts/bundle.mjs), and the keychain's client, a bundle of its
 * own, throws errors the answer that loaded it checks with `instanceof TokencliError`. A symbol of
 * the global registry, set in the constructor: a class member keyed by it would keep this module in
 * bundles that never make an error (esbuild cannot prove such a key harmless).
 */
const ERROR_BRAND: unique symbol = /* @__PURE__ */ Symbol.for('tokencli.TokencliError');

export class TokencliError extends Error {
  /**
   * `error instanceof TokencliError` is true for one of another copy of this class too (above). A
   * subclass (`instanceof InputError`) is checked as usual: only this class crosses copies.
   */
  static override [Symbol.hasInstance]<T>(
    this: abstract new (
      ...args: never[]
    ) => T,
    value: unknown,
  ): value is T {
    const ordinary = Function.prototype[Symbol.hasInstance];
    // A subclass (InputError, …) inherits this method rather than owning it: checked as usual.
    // biome-ignore lint/complexity/noThisInStatic: `this` is whichever class is right of instanceof
    if (!Object.hasOwn(this, Symbol.hasInstance)) return ordinary.call(this, value);
    return typeof value === 'object' && value !== null && ERROR_BRAND in value;
  }

  readonly code: ErrorCode;
  readonly reason: ErrorReason | undefined;
  readonly details: ErrorDetails;
  readonly hint: string | undefined;

  constructor(message: string, options: TokencliErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TokencliError';
    this.code = options.code;
    this.reason = options.reason;
    this.details = options.details ?? {};
    this.hint = options.hint;
    // Not enumerable: nothing new in the error's JSON or its inspection.
    Object.defineProperty(this, ERROR_BRAND, { value: true });
  }
}

/** Bad flag, missing or malformed input, refused plain-http base URL: exit 2. */
export class UsageError extends TokencliError {
  constructor(message: string, hint?: string, cause?: unknown) {
    super(message, { code: 'usage', hint, cause });
    this.name = 'UsageError';
  }
}

/** Bad input found below the CLI: a stable `reason` and `details` instead of a worded hint. */
export class InputError extends TokencliError {
  constructor(message: string, reason: ErrorReason, details: ErrorDetails = {}, cause?: unknown) {
    super(message, { code: 'usage', reason, details, cause });
    this.name = 'InputError';
  }
}

/** Nothing usable stored (not logged in, no refresh token, refresh token expired): exit 4. */
export class NotLoggedInError extends TokencliError {
  constructor(message: string, hint?: string, reason?: ErrorReason, details?: ErrorDetails) {
    super(message, { code: 'not_logged_in', hint, reason, details });
    this.name = 'NotLoggedInError';
  }
}

/** Ctrl-C or an aborted signal: exit 130. */
export class InterruptedError extends TokencliError {
  constructor(cause?: unknown) {
    super('interrupted', { code: 'interrupted', cause });
    this.name = 'InterruptedError';
  }
}
