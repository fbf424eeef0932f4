/**
 * Strict validation of the service configuration (docs/contract.md §3): unknown keys, wrong types, unknown
 * grants and duplicates are errors that name the key path (`apps[0].redirect_uris[1]: …`), so a
 * typo never silently becomes a default.
 */

import { GRANT_NAMES } from '../protocol/grants.js';
import { KeyInputError, verificationKeyFromPem } from '../saml/keys.js';
import { emailKey, forbiddenEmailCharacter } from '../text/email-identity.js';
import {
  type AppConfig,
  CONFIG_DEFAULTS,
  type GrantName,
  type SamlConfig,
  type ServiceConfig,
  TOKEN_TYPES,
  type TokenType,
  type UserConfig,
} from './config.js';
import { CONFIG_FORMAT_DOC, CONFIG_FORMAT_HINT, ServiceConfigError } from './config-error.js';

/** Ten years: keeps expiry arithmetic far from overflow and catches unit mistakes (ms for s). */
const MAX_TTL = 315_360_000;
/** RFC 6749 §4.1.2 recommends at most ten minutes for an authorization code. */
const MAX_CODE_TTL = 600;
/** RFC 6749 §3.3 scope-token characters. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** RFC 6749 Appendix A: client_id and client_secret are VSCHARs; spaces in an id only cause trouble. */
const CLIENT_ID = /^[\x21-\x7e]{1,200}$/;
const VSCHARS = /^[\x20-\x7e]+$/;

type Json = Record<string, unknown>;

function fail(path: string, problem: string): never {
  throw new ServiceConfigError(path === '' ? `the configuration ${problem}` : `${path}: ${problem}`, {
    reason: 'service_config_invalid',
    details: CONFIG_FORMAT_DOC,
    hint: CONFIG_FORMAT_HINT,
  });
}

function object(value: unknown, path: string, allowed: readonly string[]): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, path === '' ? 'must be a JSON object' : 'must be an object');
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      fail(path === '' ? key : `${path}.${key}`, `unknown key; expected one of ${allowed.join(', ')}`);
    }
  }
  return value as Json;
}

function key(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

function string(obj: Json, path: string, name: string, pattern?: RegExp, patternProblem?: string): string {
  const value = obj[name];
  if (value === undefined) fail(key(path, name), 'is required');
  if (typeof value !== 'string' || value === '') fail(key(path, name), 'must be a non-empty string');
  if (pattern && !pattern.test(value)) fail(key(path, name), patternProblem ?? 'has invalid characters');
  return value;
}

function optionalString(obj: Json, path: string, name: string): string | undefined {
  return obj[name] === undefined ? undefined : string(obj, path, name);
}

function boolean(obj: Json, path: string, name: string, fallback: boolean): boolean {
  const value = obj[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(key(path, name), 'must be true or false');
  return value;
}

function integer(obj: Json, name: string, fallback: number, max: number): number {
  const value = obj[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    fail(name, `must be a whole number of seconds between 1 and ${max}`);
  }
  return value;
}

function array(obj: Json, path: string, name: string): unknown[] {
  const value = obj[name];
  if (value === undefined) fail(key(path, name), 'is required');
  if (!Array.isArray(value) || value.length === 0) fail(key(path, name), 'must be a non-empty array');
  return value;
}

function absoluteUri(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'must be a string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(path, 'must be an absolute URI');
  }
  // RFC 6749 §3.1.2: the redirection endpoint URI MUST NOT include a fragment component.
  if (url.hash !== '' || value.includes('#')) fail(path, 'must not contain a fragment (#…)');
  return value;
}

function uniqueStrings<T extends string>(
  values: unknown[],
  path: string,
  each: (v: unknown, p: string) => T,
): T[] {
  const seen = new Map<T, number>();
  return values.map((value, i) => {
    const item = each(value, `${path}[${i}]`);
    const earlier = seen.get(item);
    if (earlier !== undefined) fail(`${path}[${i}]`, `duplicate of ${path}[${earlier}]`);
    seen.set(item, i);
    return item;
  });
}

function grant(value: unknown, path: string): GrantName {
  if (typeof value !== 'string' || !(GRANT_NAMES as readonly string[]).includes(value)) {
    fail(path, `unknown grant ${JSON.stringify(value)}; expected one of ${GRANT_NAMES.join(', ')}`);
  }
  return value as GrantName;
}

/**
 * The check the SAML verifier makes on every request, made once at start: an RSA certificate or
 * public key. A private key is refused, not quietly reduced to its public half: it does not
 * belong in the service's configuration.
 */
function samlKey(pem: string, path: string): void {
  if (/PRIVATE KEY/.test(pem)) {
    fail(path, "is a private key; register the identity provider's certificate or public key instead");
  }
  try {
    verificationKeyFromPem(pem);
  } catch (error) {
    if (!(error instanceof KeyInputError)) throw error;
    fail(
      path,
      error.message.includes('an RSA key is required')
        ? 'must be an RSA certificate or public key (assertions are signed with RSA-SHA256)'
        : 'must be a PEM certificate or public key',
    );
  }
}

function saml(value: unknown, path: string): SamlConfig {
  const obj = object(value, path, ['issuer', 'certificate', 'audience']);
  const issuer = string(obj, path, 'issuer');
  const certificate = string(obj, path, 'certificate');
  samlKey(certificate, `${path}.certificate`);
  const audience = optionalString(obj, path, 'audience');
  const result: SamlConfig = { issuer, certificate };
  if (audience !== undefined) result.audience = audience;
  return result;
}

const APP_KEYS = [
  'client_id',
  'client_secret',
  'app_name',
  'redirect_uris',
  'grants',
  'refresh_tokens',
  'saml',
  'token_type',
] as const;

function tokenType(value: unknown, path: string): TokenType {
  if (typeof value !== 'string' || !(TOKEN_TYPES as readonly string[]).includes(value)) {
    fail(
      path,
      `must be one of ${TOKEN_TYPES.map((t) => JSON.stringify(t)).join(', ')} (the platform sends "BearerToken"; "Bearer" suits strict OAuth clients)`,
    );
  }
  return value as TokenType;
}

function app(value: unknown, path: string): AppConfig {
  const obj = object(value, path, APP_KEYS);
  const grants =
    obj.grants === undefined
      ? (['authorization_code'] as GrantName[])
      : uniqueStrings(array(obj, path, 'grants'), `${path}.grants`, grant);
  const result: AppConfig = {
    client_id: string(obj, path, 'client_id', CLIENT_ID, 'must be 1 to 200 visible ASCII characters'),
    client_secret: string(obj, path, 'client_secret', VSCHARS, 'must be printable ASCII'),
    app_name: string(obj, path, 'app_name'),
    redirect_uris: uniqueStrings(array(obj, path, 'redirect_uris'), `${path}.redirect_uris`, absoluteUri),
    grants,
    refresh_tokens: boolean(obj, path, 'refresh_tokens', false),
  };
  if (result.refresh_tokens && !result.grants.includes('refresh_token')) {
    fail(`${path}.refresh_tokens`, 'issuing refresh tokens needs "refresh_token" in grants');
  }
  if (obj.saml !== undefined) result.saml = saml(obj.saml, `${path}.saml`);
  if (obj.token_type !== undefined) result.token_type = tokenType(obj.token_type, `${path}.token_type`);
  return result;
}

function user(value: unknown, path: string): UserConfig {
  const obj = object(value, path, ['email', 'password', 'single_session']);
  const email = string(obj, path, 'email', /^[^\s@]+@[^\s@]+$/, 'must be an email address');
  // A user nobody could log in as (lookups refuse such characters; text/email-identity.ts).
  const forbidden = forbiddenEmailCharacter(email);
  if (forbidden)
    fail(`${path}.email`, `must not contain ${forbidden} (a control, format or white-space character)`);
  return {
    email,
    password: string(obj, path, 'password'),
    single_session: boolean(obj, path, 'single_session', false),
  };
}

function noDuplicates<T>(items: T[], path: string, field: string, keyOf: (item: T) => string): void {
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const k = keyOf(item);
    const earlier = seen.get(k);
    if (earlier !== undefined) fail(`${path}[${i}].${field}`, `duplicate of ${path}[${earlier}].${field}`);
    seen.set(k, i);
  });
}

/**
 * Validates a parsed configuration and fills in the defaults of docs/contract.md §1.
 *
 * @throws ServiceConfigError whose message starts with the path of the bad key
 */
export function validateServiceConfig(json: unknown): ServiceConfig {
  const top = object(json, '', [
    'scope',
    'access_token_ttl',
    'refresh_token_ttl',
    'code_ttl',
    'apps',
    'users',
  ]);
  const scope =
    top.scope === undefined
      ? CONFIG_DEFAULTS.scope
      : string(top, '', 'scope', SCOPE_TOKEN, 'must be one scope token, without spaces');
  const config: ServiceConfig = {
    scope,
    access_token_ttl: integer(top, 'access_token_ttl', CONFIG_DEFAULTS.access_token_ttl, MAX_TTL),
    refresh_token_ttl: integer(top, 'refresh_token_ttl', CONFIG_DEFAULTS.refresh_token_ttl, MAX_TTL),
    code_ttl: integer(top, 'code_ttl', CONFIG_DEFAULTS.code_ttl, MAX_CODE_TTL),
    apps: array(top, '', 'apps').map((a, i) => app(a, `apps[${i}]`)),
    users: array(top, '', 'users').map((u, i) => user(u, `users[${i}]`)),
  };
  noDuplicates(config.apps, 'apps', 'client_id', (a) => a.client_id);
  // Emails match by ASCII case only (text/email-identity.ts), so two that differ so collide.
  noDuplicates(config.users, 'users', 'email', (u) => emailKey(u.email));
  return config;
}
