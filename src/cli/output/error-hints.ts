/**
 * The one table that turns an error's stable `code` / `reason` (+ its details and the request
 * context) into the `hint:` line a person at a terminal can act on, naming this CLI's flags,
 * environment variables and commands (npm/cli's error-message table is the model). Layers below
 * `src/cli/` never name them; see src/errors.ts.
 *
 * Service errors: the service's codes (docs/contract.md §1, RFC 6749 §5.2, RFC 6750 §3.1), refined by the
 * grant that was tried and the endpoint that answered.
 */
import type { ErrorReason, TokencliError } from '../../errors.js';
import type { NetworkError } from '../../http/network-error.js';
import type { ServiceError } from '../../oauth/service-error.js';
import { GrantType, type GrantTypeValue } from '../../protocol/grants.js';
import type { SettingName, SettingOrigin } from '../../session/setting-error.js';
import type { ProfileSource } from '../../session/settings.js';
import { KEYRING_LOCKED } from '../../store/keyring-locked.js';
import { docLocation } from './doc-location.js';
import { type CommandFor, commandsFor, type RunTarget } from './paste-command.js';
import { profilesHint } from './profile-names.js';
import { originName, profileSourceName } from './setting-names.js';

type Details = TokencliError['details'];
type Endpoint = 'token' | 'tokeninfo' | 'authorize' | undefined;

const VERBOSE = 'run again with --verbose to see what was sent (secrets redacted)';
const clientCredentials = (cmd: CommandFor) =>
  `check the client id and client secret (${cmd('configure')}, or TOKENCLI_CLIENT_ID and TOKENCLI_CLIENT_SECRET)`;
const USER_CREDENTIALS =
  'check the email and password (--email or TOKENCLI_EMAIL, --password-stdin or TOKENCLI_PASSWORD)';
const newAccessToken = (cmd: CommandFor) =>
  `the access token is invalid, expired or revoked; get a new one with ${cmd('token --force')} (the cache may hold it) or ${cmd('login')}`;

/** The hint for subcode 018 (docs/contract.md §1 rule 10). */
export const END_OTHER_SESSIONS_HINT = 'run again with --end-other-sessions to end your other sessions';

/**
 * Where the endpoint that answered lives: the URL actually requested when the error knows it, else
 * the pattern. Tokeninfo's errors must not name the token endpoint.
 */
function baseUrlHint(endpoint: Endpoint, url?: string): string {
  const [name, path] =
    endpoint === 'tokeninfo'
      ? ['tokeninfo', '/v2/oauth/tokeninfo']
      : endpoint === 'authorize'
        ? ['authorize', '/v2/oauth/authorize']
        : ['token', '/v2/oauth/token'];
  const where = url
    ? `the ${name} endpoint requested was ${url}`
    : `the ${name} endpoint is <base URL>${path}`;
  return `check the base URL (--base-url, TOKENCLI_BASE_URL): ${where}`;
}

/**
 * A 404 from tokeninfo where the token endpoint may well work: many OAuth servers (oidc-provider,
 * mock servers) have no tokeninfo endpoint at all, and no base URL would help.
 */
function tokeninfoNotFoundHint(url: string | undefined): string {
  return `${baseUrlHint('tokeninfo', url)}; if the base URL is right, the server may not implement tokeninfo, which this command needs`;
}

const GRANT_NAMES: Record<GrantTypeValue, string> = {
  authorization_code: 'authorization code (tokencli login)',
  refresh_token: 'refresh token',
  client_credentials: 'client credentials (email and password)',
  'urn:ietf:params:oauth:client-assertion-type:saml2-bearer': 'SAML bearer (tokencli sso)',
};

function invalidGrantHint(grant: GrantTypeValue | undefined, cmd: CommandFor): string {
  switch (grant) {
    case GrantType.authorizationCode:
      return `an authorization code is valid once and for 20 seconds; run ${cmd('login')} again`;
    case GrantType.refreshToken:
      return `the refresh token is invalid, expired or revoked; run ${cmd('login')}`;
    case GrantType.clientCredentials:
      return USER_CREDENTIALS;
    case GrantType.saml2Bearer:
      return "check the SAML document: signed with the application's registered key, the right issuer and audience, within its validity window, and not used before";
    default:
      return VERBOSE;
  }
}

function grantNotEnabledHint(grant: GrantTypeValue | undefined, cmd: CommandFor): string {
  const name = grant ? `the ${GRANT_NAMES[grant]} grant` : 'this grant';
  return `the application is not enabled for ${name}; ask the platform operator to enable it, or use ${cmd('login')}`;
}

/** For a lifetime the service got wrong: the service's operator has to fix it, not the user's URL. */
export const LIFETIME_HINT =
  'the token service sent a lifetime tokencli cannot use; nothing was stored — report it to the service operator (--verbose shows the response, secrets redacted)';

/** For a token type other than Bearer (RFC 6749 §7.1): nothing was stored or printed. */
export const TOKEN_TYPE_HINT =
  'nothing was stored; the service issued a kind of token tokencli cannot send — ask its operator for Bearer tokens';

/** For a token that cannot go into a header or a shell's `$(…)`: the service's mistake, not the URL's. */
export const TOKEN_VALUE_HINT =
  'nothing was stored or printed; the service issued a token with characters no HTTP header can carry — report it to the service operator';

/** For a 2xx or 3xx body that is not the token service's JSON: probably the wrong URL or a gateway. */
function unexpectedResponseHint(endpoint: Endpoint, url: string | undefined): string {
  return `${baseUrlHint(endpoint, url)}; a proxy or gateway may have answered instead of the service`;
}

/**
 * The check of the authorize URL before the browser login (src/oauth/authorize-check.ts) ended it:
 * only refusals and failures no browser could get past reach here.
 */
function authorizeHint(error: ServiceError, cmd: CommandFor): string {
  const { status, context } = error;
  if (status === 400 || context.unknownClient) {
    const id = context.clientId ? ` "${context.clientId}"` : '';
    return `nothing was opened in the browser; check the client id${id} (--client-id, TOKENCLI_CLIENT_ID or ${cmd('configure')}) and that the application registers the redirect URI tokencli uses (--redirect-uri)`;
  }
  if (status >= 500) return 'the token service is failing; try again later, or ask its operator';
  return baseUrlHint('authorize', context.url);
}

/** The hint for a service error, or undefined where there is nothing useful to say. */
export function serviceErrorHint(error: ServiceError, cmd: CommandFor = commandsFor({})): string | undefined {
  const { status, serviceCode: code, subcode, context } = error;
  if (context.endpoint === 'authorize') return authorizeHint(error, cmd);
  if (error.reason === 'unexpected_response') return unexpectedResponseHint(context.endpoint, context.url);
  if (error.reason === 'bad_lifetime') return LIFETIME_HINT;
  if (error.reason === 'bad_token_type') return TOKEN_TYPE_HINT;
  if (error.reason === 'bad_token_value') return TOKEN_VALUE_HINT;
  if (error.reason === 'redirect') {
    return 'use the final address as the base URL (--base-url, TOKENCLI_BASE_URL), with https:// and any path prefix it needs';
  }
  if (subcode === '018') return END_OTHER_SESSIONS_HINT;
  if (subcode === '017') {
    return context.grantType === GrantType.clientCredentials ? USER_CREDENTIALS : clientCredentials(cmd);
  }
  if (context.unknownClient) {
    const id = context.clientId ? ` "${context.clientId}"` : '';
    return `check the client id${id}: it must be the application's consumer key (--client-id, TOKENCLI_CLIENT_ID or ${cmd('configure')})`;
  }
  // Before the codes: a server without the route may still say `invalid_request` (oidc-provider).
  if (status === 404 && context.endpoint === 'tokeninfo') return tokeninfoNotFoundHint(context.url);
  switch (code) {
    case 'invalid_client':
      return clientCredentials(cmd);
    case 'invalid_grant':
      return invalidGrantHint(context.grantType, cmd);
    case 'unauthorized_client':
    case 'unsupported_grant_type':
      return grantNotEnabledHint(context.grantType, cmd);
    case 'invalid_scope':
      return 'the service supports a single scope; leave the scope out or ask the platform operator which one';
    case 'invalid_token':
      return newAccessToken(cmd);
    case 'access_denied':
      return 'access was denied by the user or the platform operator';
    case 'invalid_request':
      return context.endpoint === 'tokeninfo'
        ? 'tokeninfo inspects access tokens only (not refresh tokens); check the token and the client id'
        : VERBOSE;
  }
  if (status === 401) return context.endpoint === 'tokeninfo' ? newAccessToken(cmd) : clientCredentials(cmd);
  if (status === 429 || status === 503) {
    const wait = context.retryAfter ? ` (the service asks to wait ${context.retryAfter})` : '';
    return `the token service is busy or down; try again later${wait}`;
  }
  if (status === 404 || status === 405) return baseUrlHint(context.endpoint, context.url);
  if (status >= 500) return 'the token service is failing; try again later, or ask its operator';
  if (status >= 400) return VERBOSE;
  return undefined;
}

const CA_HINT =
  'if the certificate is signed by a private or corporate CA (or a TLS-inspecting proxy), add that CA with --ca-file FILE or NODE_EXTRA_CA_CERTS=FILE (PEM)';

/** Network failures by reason (src/http/network-error.ts). */
function networkHint(error: NetworkError): string {
  switch (error.reason) {
    case 'tls_untrusted':
      return CA_HINT;
    case 'tls_clock':
      return `check the system clock; ${CA_HINT}`;
    case 'tls_hostname':
      return `check the base URL's host name; ${CA_HINT}`;
    case 'tls_handshake':
      return `check that the base URL uses the right scheme and port; ${CA_HINT}`;
    case 'connect':
      return 'check the base URL (--base-url, TOKENCLI_BASE_URL) and that the token service is running';
    case 'dns':
      return 'check the base URL (--base-url, TOKENCLI_BASE_URL), your network and DNS';
    case 'proxy':
      return 'check HTTPS_PROXY / HTTP_PROXY / NO_PROXY';
    case 'not_http':
      return "check the base URL's scheme and port (https:// for a TLS port) and that it points at the token service";
    case 'reset':
      return `try again; if it keeps happening, check proxies between you and the service (the request timed out after ${error.details.timeoutSeconds} s at most)`;
    case 'timeout':
      return 'the token service may be slow or unreachable; allow more time with --timeout SECONDS (or TOKENCLI_TIMEOUT)';
    case 'too_large':
      return 'check the base URL: it should point at the token service, not at another site';
    default:
      return 'check the base URL and your network; run again with --verbose for details';
  }
}

function caOrigin(details: Details): string {
  return details.origin === 'ca_file' ? '--ca-file' : String(details.origin);
}

const ANY_PORT = 'or use port 0 for any free port, e.g. --redirect-uri http://127.0.0.1:0/callback';

function listenHint(details: Details): string {
  switch (details.systemCode) {
    case 'EADDRINUSE':
      return `stop the program using port ${details.port} (another tokencli login?), ${ANY_PORT}`;
    case 'EACCES':
      return `ports below 1024 need privileges; choose a higher port, ${ANY_PORT}`;
    case 'EADDRNOTAVAIL':
    case 'EAFNOSUPPORT':
      return 'use --redirect-uri http://127.0.0.1:PORT/PATH';
    default:
      return 'choose another --redirect-uri';
  }
}

const login = (cmd: CommandFor) => `run ${cmd('login')} (the browser login also yields a refresh token)`;

/** The hint after a refused cached token was dropped from the store. */
function droppedHint(canRenew: boolean, cmd: CommandFor): string {
  return canRenew
    ? `the service refused the cached access token (revoked or expired early); it was dropped, and ${cmd('token')} now gets a new one with the refresh token`
    : `the service refused the cached access token (revoked or expired early); it was dropped; run ${cmd('login')} (or ${cmd('token')} with the password)`;
}

/** How to get a new token when the stored one can no longer be used and has no refresh token. */
function renewHint(d: Details, cmd: CommandFor): string {
  return d.grant === 'client_credentials'
    ? `run ${cmd('token')} again with the password (on a terminal it asks; in CI set TOKENCLI_PASSWORD), or run ${cmd('login')}`
    : login(cmd);
}

/** A keychain out of reach only because its keyring is locked: unlocking it is the remedy. */
function keyringLocked(d: Details): boolean {
  return String(d.why ?? '').includes(KEYRING_LOCKED);
}

const UNLOCK_KEYRING =
  "unlock the keyring and try again (your desktop's password manager, such as Seahorse, or log out and in; over SSH, gnome-keyring-daemon --unlock reads its password on stdin)";

/** Every other reason raised below the CLI, by `reason`. */
const HINTS: Partial<Record<ErrorReason, (details: Details, cmd: CommandFor) => string>> = {
  profile_name_empty: () => 'give a profile name, or leave out --profile for the active (or default) profile',
  not_configured: (_, cmd) =>
    `pass --base-url and --client-id once (or set TOKENCLI_BASE_URL and TOKENCLI_CLIENT_ID): the profile remembers them; or run ${cmd('configure')}`,
  base_url_missing: (_, cmd) => `pass --base-url, set TOKENCLI_BASE_URL, or run ${cmd('configure')}`,
  client_id_missing: (_, cmd) => `pass --client-id, set TOKENCLI_CLIENT_ID, or run ${cmd('configure')}`,
  client_secret_missing: (_, cmd) =>
    `pipe it to --client-secret-stdin or set TOKENCLI_CLIENT_SECRET, or save it with ${cmd('configure')}`,
  password_missing: () => 'pipe it to --password-stdin or set TOKENCLI_PASSWORD',
  email_missing: () => 'pass --email or set TOKENCLI_EMAIL',
  no_token: (_, cmd) =>
    `run ${cmd('login')}, or in CI set TOKENCLI_EMAIL and TOKENCLI_PASSWORD (with TOKENCLI_CLIENT_SECRET)`,
  other_service: (d, cmd) =>
    `pass --base-url ${d.storedBaseUrl} --client-id ${d.storedClientId} to use it, or run ${cmd('login')} for this service`,
  refresh_token_expired: (_, cmd) => `run ${cmd('login')} again`,
  access_token_expired: renewHint,
  access_token_revoked: renewHint,
  cannot_renew: (_, cmd) => `leave out --force to use it, or ${login(cmd)}`,
  min_ttl_unmet: (_, cmd) => `lower --min-ttl, or ${login(cmd)}`,
  no_refresh_token: (_, cmd) => `run ${cmd('login')} (only the browser login yields a refresh token)`,
  no_access_token: (_, cmd) =>
    `run ${cmd('login')} or ${cmd('token')}, or pipe a token in with --token-stdin`,
  profile_store_unreachable: (d) =>
    keyringLocked(d)
      ? `${UNLOCK_KEYRING}, or pass --store file and log in again to keep a separate copy in a file`
      : 'run where the keychain is reachable (a desktop session; over SSH start the Secret Service, e.g. dbus-run-session with gnome-keyring-daemon --unlock), or pass --store file and log in again to keep a separate copy in a file',
  base_url_invalid: () =>
    'give an absolute URL such as https://api.example.com (--base-url, TOKENCLI_BASE_URL)',
  // The command ends a pipeline here: the opening backtick moves to the pipeline's start.
  access_token_malformed: (_, cmd) =>
    `pass the token alone, e.g. \`printf %s "$TOKEN" | ${cmd('info --token-stdin').slice(1)}`,
  ca_file_unreadable: (d) => `give ${caOrigin(d)} the path of a readable PEM file holding the CA certificate`,
  ca_file_not_pem: (d) => `give ${caOrigin(d)} a PEM file with "-----BEGIN CERTIFICATE-----" blocks`,
  redirect_uri_invalid: () =>
    'use a loopback http URL such as http://127.0.0.1:8765/callback, http://[::1]:8765/callback or http://localhost:0/callback',
  listen_failed: listenHint,
  // Denied at the browser step. Without a reason it may not have been a person's "Deny": some
  // servers (oidc-provider) deny a request that asks for no scope.
  access_denied: (d, cmd) =>
    d.description === undefined
      ? `run ${cmd('login')} again and allow access in the browser; no reason was given, and some services deny a login that asks for no scope: name one with --scope SCOPE (e.g. --scope openid)`
      : `run ${cmd('login')} again and allow access in the browser`,
  login_timeout: (_, cmd) =>
    `run ${cmd('login')} again and finish in the browser, or allow more time with --timeout-login SECONDS`,
  store_unknown: () => 'use --store keychain, file or none',
  keychain_unavailable: (d) =>
    keyringLocked(d)
      ? `${UNLOCK_KEYRING}, or use --store file to keep credentials in a private file (or --store none for this run only)`
      : 'use --store file to keep credentials in a private file (or --store none for this run only)',
  keychain_timeout: () => 'unlock the keychain and try again, or use --store file',
  keychain_failed: () => 'check that the keychain is unlocked, or use --store file',
  file_store_damaged: (d) => `move ${d.path} away yourself, or use --store keychain or --store none`,
  config_dir_symlink: () => 'remove the link or point TOKENCLI_CONFIG_DIR at a real directory',
  listen_in_use: () => 'choose another port with --port, or --port 0 for any free port',
  listen_denied: () => 'use a port above 1023, or --port 0',
  listen_not_local: () => 'pass a local address to --host, such as 127.0.0.1',
  config_unreadable: () => 'pass an existing JSON file to --config',
  service_config_invalid: (d) =>
    `fix the configuration file; its format is described in ${docLocation(String(d.doc), d.section === undefined ? undefined : String(d.section))}`,
  control_not_loopback: () =>
    'anyone who can reach it could revoke tokens and break the service: bind 127.0.0.1, or set a control token (--control-token-stdin or TOKENCLI_CONTROL_TOKEN)',
  sign_cert_has_private_key: () =>
    'pass the certificate (-----BEGIN CERTIFICATE-----) with --sign-cert and the key with --sign-key',
  sign_cert_mismatch: () => 'pass the certificate issued for this key, or leave out --sign-cert',
  assertion_already_signed: () => 'send it as it is, without --sign-key',
  no_such_profile: (d, cmd) => profilesHint(String(d.profile), Array.isArray(d.names) ? d.names : [], cmd),
  config_invalid: (_, cmd) => `fix the file, or remove it and run ${cmd('configure')}`,
  lock_unwritable: () =>
    'check that the config directory (TOKENCLI_CONFIG_DIR) is a directory you can write to',
};

/** The origin of a setting error, as the session layer recorded it in `details`. */
function settingOrigin(d: Details): SettingOrigin {
  switch (d.origin) {
    case 'environment':
      return { kind: 'environment', variable: String(d.variable) };
    case 'profile':
      return { kind: 'profile', profile: String(d.profile), key: String(d.key) };
    case 'named':
      return { kind: 'named', label: String(d.label) };
    default:
      return { kind: 'option' };
  }
}

/** Messages below the CLI that name an option or say "the redirect URI" where the CLI names its flag. */
const MESSAGES: Partial<Record<ErrorReason, (details: Details) => string>> = {
  setting_invalid: (d) => `${originName(d.setting as SettingName, settingOrigin(d))}: ${d.problem}`,
  profile_name_empty: () => '--profile: the profile name is empty',
  no_such_profile: (d) => {
    const source = (d.source ?? 'default') as ProfileSource;
    return `no profile "${d.profile}"${source === 'default' ? '' : ` (from ${profileSourceName(source)})`}`;
  },
  client_secret_missing: () => 'no client secret, and stdin is not a terminal to ask for one',
  password_missing: () => 'no password, and stdin is not a terminal to ask for one',
  cannot_renew: (d) =>
    `--force: there is no refresh token or password to get a new token for profile "${d.profile}" (the stored one has ${d.left} left)`,
  min_ttl_unmet: (d) =>
    `the access token of profile "${d.profile}" has ${d.left} left, less than --min-ttl ${d.minTtlSeconds}s, and there is no refresh token to renew it`,
  redirect_uri_invalid: (d) => `invalid --redirect-uri "${d.value}": ${d.why}`,
  listen_failed: (d) => `cannot listen on ${d.where} for --redirect-uri: ${d.problem}`,
  ca_file_unreadable: (d) => `the CA certificate file ${d.file} (${caOrigin(d)}) ${d.why}`,
  ca_file_not_pem: (d) => `the CA certificate file ${d.file} (${caOrigin(d)}) ${d.why}`,
};

/**
 * The hint for an error: its own (set in src/cli/), else the table's — the table's first when the
 * error's details name a document (`doc`) its reason has a wording for. The commands it suggests
 * carry the flags `target` names (this run's profile and service: paste-command.ts).
 */
export function hintFor(error: TokencliError, target: RunTarget = {}): string | undefined {
  // A lower layer's hint can name a document only as a file of the package's docs/, which the user
  // may not know where to find (or, from the single executable, not have): the table says where.
  const namesDoc =
    typeof error.details.doc === 'string' && error.reason !== undefined && HINTS[error.reason] !== undefined;
  if (error.hint !== undefined && !namesDoc) return error.hint;
  const cmd = commandsFor(target);
  if (error.reason === 'access_token_refused') return droppedHint(error.details.canRenew === 1, cmd);
  if (error.name === 'ServiceError') return serviceErrorHint(error as ServiceError, cmd);
  if (error.code === 'network') return networkHint(error as NetworkError);
  const reason = error.reason;
  return reason !== undefined && HINTS[reason] ? HINTS[reason](error.details, cmd) : undefined;
}

/** The text of the `error:` and `hint:` lines for an error, in this CLI's terms. */
export function describeError(
  error: TokencliError,
  target: RunTarget = {},
): { message: string; hint: string | undefined } {
  const reason = error.reason;
  const rewrite = reason !== undefined ? MESSAGES[reason] : undefined;
  return { message: rewrite ? rewrite(error.details) : error.message, hint: hintFor(error, target) };
}
