/**
 * A token-information response (docs/contract.md §1 rule 9, §2.6 `info --json`): every field the service
 * returned, the redirect field under `redirect_uri` whichever way it was spelled (`redirect_url` in
 * the samples), plus `expires_at` from the local clock at receipt.
 *
 * The documented fields are type-checked (the info table and scripts rely on them): strings must be
 * strings, lifetimes numbers or digit strings (normalised to numbers). A JSON `null` counts as
 * absent. Undocumented fields are passed through untouched, except an `expires_at` of the
 * service's own, which the local one replaces (or drops, without `expires_in`). A body with none of the documented
 * fields is not token information. Rejections are a ServiceError, exit 5.
 */
import {
  addSeconds,
  MalformedResponse,
  optionalSeconds,
  optionalString,
  requireObject,
} from './parse-fields.js';
import { unexpectedResponseError } from './service-error.js';
import type { TokenInfo } from './types.js';

const STRING_FIELDS = [
  'access_token',
  'token_type',
  'status',
  'scope',
  'refresh_token',
  'redirect_uri',
  'email',
  'app_name',
] as const;
const SECONDS_FIELDS = ['expires_in', 'refresh_token_expires_in'] as const;

/** Normalises a parsed tokeninfo body; `now` is the local receipt time. */
export function parseTokenInfo(json: unknown, now: Date, status = 200): TokenInfo {
  try {
    return readTokenInfo(json, now);
  } catch (error) {
    if (error instanceof MalformedResponse) {
      throw unexpectedResponseError(status, error.message, error, 'tokeninfo', error.reason);
    }
    throw error;
  }
}

function readTokenInfo(json: unknown, now: Date): TokenInfo {
  const body = requireObject(json, 'token information');
  const info: TokenInfo = {};
  // defineProperty, not assignment: a `__proto__` key in the JSON must stay a plain field.
  const put = (name: string, value: unknown) =>
    Object.defineProperty(info, name, { value, enumerable: true, writable: true, configurable: true });

  for (const [name, value] of Object.entries(body)) {
    if (name !== 'redirect_url' && name !== 'expires_at' && value !== null) put(name, value);
  }
  for (const name of STRING_FIELDS) {
    const value = optionalString(body, name);
    if (value !== undefined) put(name, value);
  }
  const redirect = optionalString(body, 'redirect_url');
  if (info.redirect_uri === undefined && redirect !== undefined) put('redirect_uri', redirect);

  let known = STRING_FIELDS.some((name) => info[name] !== undefined);
  for (const name of SECONDS_FIELDS) {
    const seconds = optionalSeconds(body, name);
    if (seconds !== undefined) {
      put(name, seconds);
      known = true;
    }
  }
  if (!known) throw new MalformedResponse('the token information carries none of the documented fields');
  if (info.expires_in !== undefined) put('expires_at', addSeconds(now, info.expires_in));
  return info;
}
