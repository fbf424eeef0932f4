/**
 * A successful create-token response (docs/contract.md §1, RFC 6749 §5.1) into a TokenSet:
 *
 * - `redirect_url` (the sample's spelling) and `redirect_uri` both land in `redirect_uri`
 *   (`redirect_uri` wins where both are present);
 * - fields nobody documented (`"flags":[{"name":"NEW"}]`) are ignored;
 * - `expires_at` / `refresh_token_expires_at` = receipt time + the remaining lifetime, ISO 8601;
 * - `access_token` must be a non-empty string of visible ASCII; wrong types are rejected.
 *
 * Decisions where the service documents a default rather than a requirement: a missing
 * `token_type` is `BearerToken` and a missing `expires_in` is 3600 (the documented defaults);
 * lifetimes may be JSON numbers or digit strings (parse-fields.ts). The refresh lifetime is kept
 * only together with a refresh token. Everything rejected is a ServiceError, exit 5.
 */
import {
  addSeconds,
  MalformedResponse,
  optionalSeconds,
  optionalString,
  optionalToken,
  requireObject,
} from './parse-fields.js';
import { unexpectedResponseError } from './service-error.js';
import type { TokenSet } from './types.js';

/** The service's documented defaults (seed: token_type BearerToken, expires_in 3600). */
export const DEFAULT_TOKEN_TYPE = 'BearerToken';
export const DEFAULT_EXPIRES_IN = 3600;

/**
 * Normalises a parsed token response body. `now` is the local receipt time; `status` is only used
 * in the error message.
 */
export function parseTokenResponse(json: unknown, now: Date, status = 200): TokenSet {
  try {
    return readTokenSet(json, now);
  } catch (error) {
    if (error instanceof MalformedResponse) {
      throw unexpectedResponseError(status, error.message, error, 'token', error.reason);
    }
    throw error;
  }
}

/** `Bearer` (RFC 6750) or the platform's `BearerToken`, in any ASCII case (RFC 6749 §5.1). */
const BEARER_TYPES = new Set(['bearer', 'bearertoken']);

/**
 * RFC 6749 §7.1: a client must not use a token whose type it does not understand. tokencli sends
 * every token as `Authorization: Bearer`, so any other type (mac, DPoP, …) is refused before
 * anything is stored or printed. Case is folded for ASCII letters only: `BEARER` is Bearer, a
 * look-alike with a dotless ı is not.
 */
function checkBearer(tokenType: string): void {
  const folded = tokenType.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  if (BEARER_TYPES.has(folded)) return;
  throw new MalformedResponse(
    `token_type is ${JSON.stringify(tokenType.length > 20 ? `${tokenType.slice(0, 20)}…` : tokenType)}, not Bearer: tokencli only uses Bearer tokens (RFC 6749 §7.1)`,
    'bad_token_type',
  );
}

function readTokenSet(json: unknown, now: Date): TokenSet {
  const body = requireObject(json, 'token response');
  const accessToken = optionalToken(body, 'access_token');
  if (accessToken === undefined) {
    throw new MalformedResponse(
      body.access_token === '' ? 'access_token is empty' : 'access_token is missing from the token response',
    );
  }
  const tokenType = optionalString(body, 'token_type') || DEFAULT_TOKEN_TYPE;
  checkBearer(tokenType);
  const expiresIn = optionalSeconds(body, 'expires_in') ?? DEFAULT_EXPIRES_IN;
  const tokens: TokenSet = {
    access_token: accessToken,
    token_type: tokenType,
    expires_in: expiresIn,
    expires_at: addSeconds(now, expiresIn),
  };

  const refreshToken = optionalToken(body, 'refresh_token');
  const refreshExpiresIn = optionalSeconds(body, 'refresh_token_expires_in');
  if (refreshToken !== undefined) {
    tokens.refresh_token = refreshToken;
    if (refreshExpiresIn !== undefined) {
      tokens.refresh_token_expires_in = refreshExpiresIn;
      tokens.refresh_token_expires_at = addSeconds(now, refreshExpiresIn);
    }
  }

  const redirectUri = optionalString(body, 'redirect_uri') || optionalString(body, 'redirect_url');
  if (redirectUri) tokens.redirect_uri = redirectUri;
  const email = optionalString(body, 'email');
  if (email) tokens.email = email;
  return tokens;
}
