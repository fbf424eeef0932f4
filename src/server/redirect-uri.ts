/**
 * Which redirect URI the browser may be sent to, and the URL it is sent to after a login.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/**
 * The registered URI a requested one matches, or undefined. Matching is exact string equality,
 * except that a registered loopback `http` URI matches the same URI on any port (RFC 8252 §7.3:
 * native apps listen on an ephemeral port). Without a request (`undefined`), the first registered
 * URI is used, as the platform sends the browser to the application's registered URI.
 *
 * @returns the URI to redirect to: the request's own (normalised) URI, or the registered one
 */
export function resolveRedirectUri(
  requested: string | undefined,
  registered: readonly string[],
): string | undefined {
  if (requested === undefined) return registered[0];
  if (registered.includes(requested)) return requested;
  const want = parse(requested);
  if (want?.protocol !== 'http:' || !LOOPBACK_HOSTS.has(want.hostname)) return undefined;
  if (want.username !== '' || want.password !== '' || want.hash !== '' || requested.includes('#')) {
    return undefined;
  }
  for (const candidate of registered) {
    const have = parse(candidate);
    if (
      have &&
      have.protocol === 'http:' &&
      have.hostname === want.hostname &&
      have.username === '' &&
      have.password === '' &&
      have.pathname === want.pathname &&
      have.search === want.search
    ) {
      return want.href;
    }
  }
  return undefined;
}

/**
 * The redirect URI with `code` and `state` added, keeping its own query untouched
 * (RFC 6749 §4.1.2: the query component MUST be retained).
 */
export function redirectWithCode(redirectUri: string, code: string, state: string | undefined): string {
  return withQuery(redirectUri, [['code', code]], state);
}

/**
 * The redirect URI with an authorization error (RFC 6749 §4.1.2.1) — a bad request, or
 * `access_denied` when the user clicks "Deny": `error`,
 * `error_description` and `state`, its own query kept as for a code.
 */
export function redirectWithError(
  redirectUri: string,
  error: string,
  description: string,
  state: string | undefined,
): string {
  return withQuery(
    redirectUri,
    [
      ['error', error],
      ['error_description', description],
    ],
    state,
  );
}

function withQuery(redirectUri: string, fields: Array<[string, string]>, state: string | undefined): string {
  let query = fields.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  if (state !== undefined) query += `&state=${encodeURIComponent(state)}`;
  const q = redirectUri.indexOf('?');
  if (q === -1) return `${redirectUri}?${query}`;
  return redirectUri.length === q + 1 ? `${redirectUri}${query}` : `${redirectUri}&${query}`;
}
