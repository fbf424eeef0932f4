/**
 * Redaction for the `--verbose` trace and for error messages (docs/contract.md §2.2, §2.4: secrets are never
 * printed or logged). Two nets, both always applied:
 *
 * 1. by name — values of parameters, JSON fields and headers whose names denote secrets
 *    (client_secret, password, code, code_verifier, refresh_token, access_token, SAMLResponse,
 *    SAMLAssertion, Authorization, …), wherever they occur: form bodies, URLs, JSON, text;
 * 2. by value — the secrets this call sent (known to the caller), in plain, URL- and JSON-encoded
 *    form, so an echo under an unexpected name is caught too.
 */

export const REDACTED = '[redacted]';

const SECRET_NAMES = new Set([
  'client_secret',
  'password',
  'code',
  'code_verifier',
  'refresh_token',
  'access_token',
  'id_token',
  'token',
  'secret',
  'samlresponse',
  'samlassertion',
  'assertion',
  'client_assertion',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);
// Anything named like a token, secret or password (`new_access_token`, `api-secret`), but not
// `token_type` or `refresh_token_expires_in`, which end differently.
const SECRET_SUFFIX = /(?:^|[_-])(?:token|secret|password|passwd)$/i;

/** True when a parameter, field or header with this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAMES.has(name.toLowerCase()) || SECRET_SUFFIX.test(name);
}

/** `a=1&client_secret=s` → `a=1&client_secret=[redacted]`; other text is kept as it was written. */
export function redactForm(body: string): string {
  return body
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = safeDecode(pair.slice(0, eq));
      return isSecretName(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
}

/** A URL with secret query parameters and any user:password redacted. */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return redactText(String(url));
  }
  const userinfo = parsed.username || parsed.password ? `${REDACTED}@` : '';
  const query = parsed.search.length > 1 ? `?${redactForm(parsed.search.slice(1))}` : parsed.search;
  const hash = parsed.hash.length > 1 ? `#${redactForm(parsed.hash.slice(1))}` : parsed.hash;
  return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${query}${hash}`;
}

/** Headers with secret values redacted; `Authorization: Bearer x` keeps its scheme. */
export function redactHeaders(
  headers: Record<string, string | string[] | number | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    // Other headers can still carry secrets in passing (a Location with `?code=…`): patterns apply.
    if (!isSecretName(name)) out[name] = redactText(text);
    else {
      const scheme = /^(Bearer|Basic|Digest|Negotiate)\s/i.exec(text);
      out[name] = scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
    }
  }
  return out;
}

/** A JSON value with the values of secret-named fields replaced, at any depth. */
export function redactJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJsonValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) ? REDACTED : redactJsonValue(v);
    return out;
  }
  return value;
}

const JSON_SECRET_FIELD = /("([^"\\]*)"\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
const FORM_SECRET_PAIR = /(^|[?&;,\s"'(])([A-Za-z_][A-Za-z0-9_-]*)=([^&\s"'<>;,)]+)/g;
const BEARER = /\b(Bearer|Basic)\s+([A-Za-z0-9\-._~+/]+=*)/gi;
/**
 * Parameters of a challenge (`WWW-Authenticate: Bearer error="invalid_token"`, RFC 6750 §3;
 * RFC 9110 §11.6.1): `Bearer` followed by `name=` is a challenge, not a credential, and its
 * parameters are what the user needs to read.
 */
const CHALLENGE_PARAM =
  /^(?:realm|scope|error|error_description|error_uri|charset|nonce|algorithm|qop|opaque|stale|domain)=$/i;

/**
 * Any text (a response body of any kind, an error message): JSON bodies are redacted by structure,
 * everything else by pattern (`"name":"value"`, `name=value`, `Bearer value`); then the known
 * secret values are removed wherever they appear.
 */
export function redactText(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      out = JSON.stringify(redactJsonValue(JSON.parse(trimmed)));
    } catch {
      // not JSON after all: the patterns below still apply
    }
  }
  out = out
    .replace(JSON_SECRET_FIELD, (all, prefix: string, name: string) =>
      isSecretName(name) ? `${prefix}"${REDACTED}"` : all,
    )
    .replace(FORM_SECRET_PAIR, (all, lead: string, name: string) =>
      isSecretName(name) ? `${lead}${name}=${REDACTED}` : all,
    )
    .replace(BEARER, (all, scheme: string, value: string) =>
      CHALLENGE_PARAM.test(value) ? all : `${scheme} ${REDACTED}`,
    );
  return scrubKnownSecrets(out, knownSecrets);
}

/**
 * Values shorter than this are not scrubbed by value: a one- or two-character "secret" occurs in any
 * text, and blanking every occurrence would garble messages without protecting anything. The
 * by-name net still covers them.
 */
export const MIN_SCRUBBED_LENGTH = 4;

/** Removes each known secret value, also in its URL-encoded, form-encoded and JSON-escaped forms. */
export function scrubKnownSecrets(text: string, knownSecrets: readonly string[]): string {
  const variants = new Set<string>();
  for (const secret of knownSecrets) {
    if (secret.length < MIN_SCRUBBED_LENGTH) continue;
    variants.add(secret);
    variants.add(encodeURIComponent(secret));
    variants.add(new URLSearchParams({ s: secret }).toString().slice(2));
    variants.add(JSON.stringify(secret).slice(1, -1));
  }
  let out = text;
  for (const v of [...variants].sort((a, b) => b.length - a.length)) {
    if (v) out = out.split(v).join(REDACTED);
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
