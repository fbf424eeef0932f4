/**
 * The token and tokeninfo success answers as JSON text, put together from parts serialised once:
 * they are what the service sends most, and `JSON.stringify` of a fresh object per request cost
 * several times more than joining strings (bench/serve.mjs). The text is exactly what
 * `JSON.stringify` makes of the same fields in the same order, which the tests hold it to.
 */

/** An application's fields of the answers, as JSON. */
export interface AppJson {
  /** `"BearerToken"`. */
  readonly tokenType: string;
  /** `,"redirect_url":"…"`, or nothing for an application without a redirect URI. */
  readonly redirectUrl: string;
  /** `"Demo App"`. */
  readonly name: string;
}

export function appJson(tokenType: string, redirectUri: string | undefined, name: string): AppJson {
  return {
    tokenType: JSON.stringify(tokenType),
    // JSON.stringify leaves out a key whose value is undefined; so does this.
    redirectUrl: redirectUri === undefined ? '' : `,"redirect_url":${JSON.stringify(redirectUri)}`,
    name: JSON.stringify(name),
  };
}

/**
 * The opening both answers share, brace included: `{"access_token":…,"token_type":…,"expires_in":…`.
 */
export function accessFieldsJson(token: string, app: AppJson, expiresIn: number): string {
  return `{"access_token":${tokenJson(token)},"token_type":${app.tokenType},"expires_in":${numberJson(expiresIn)}`;
}

/** The refresh token's fields, as both answers add them: `,"refresh_token":…,"refresh_token_expires_in":…`. */
export function refreshFieldsJson(token: string, expiresIn: number): string {
  return `,"refresh_token":${tokenJson(token)},"refresh_token_expires_in":${numberJson(expiresIn)}`;
}

/**
 * A code or token of this service as a JSON string: base64url (secrets.ts `newOpaqueToken`) has no
 * character JSON escapes, so it goes between quotes as it is.
 */
function tokenJson(token: string): string {
  return `"${token}"`;
}

/** A number as JSON: `null` for what JSON cannot hold, as JSON.stringify writes it. */
function numberJson(value: number): string {
  return Number.isFinite(value) ? `${value}` : 'null';
}
