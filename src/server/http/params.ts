/**
 * Request parameters from the query string and the form body, merged into one map.
 *
 * A parameter given twice, in one place or across query and body, is an error rather than one
 * silently winning: RFC 6749 §3.1 and §3.2 say parameters MUST NOT be included more than once,
 * and a client that sends a secret in both places has a bug worth hearing about. Parameters with
 * an empty value count as omitted (RFC 6749 §3.1, §3.2).
 */

export type Params = Map<string, string>;

export type ParsedParams = { ok: true; params: Params } | { ok: false; duplicate: string };

export function parseParams(...sources: string[]): ParsedParams {
  const params: Params = new Map();
  for (const source of sources) {
    // One pass over the text, with the splitting and decoding rules of URLSearchParams (the
    // application/x-www-form-urlencoded parser of the WHATWG URL standard), without building one.
    let start = 0;
    while (start <= source.length) {
      let end = source.indexOf('&', start);
      if (end === -1) end = source.length;
      if (end > start) {
        const equals = source.indexOf('=', start);
        const split = equals === -1 || equals > end ? end : equals;
        if (split + 1 < end) {
          const value = decodeComponent(source.slice(split + 1, end));
          const name = decodeComponent(source.slice(start, split));
          if (params.has(name)) return { ok: false, duplicate: name };
          params.set(name, value);
        }
      }
      start = end + 1;
    }
  }
  return { ok: true, params };
}

/**
 * A name or value as URLSearchParams decodes it: `+` is a space, `%XX` a byte, the bytes UTF-8.
 * Malformed percent sequences (kept as they are) and invalid UTF-8 (replaced) are rare enough to
 * be left to URLSearchParams itself.
 */
function decodeComponent(raw: string): string {
  const spaced = raw.indexOf('+') === -1 ? raw : raw.replaceAll('+', ' ');
  if (spaced.indexOf('%') === -1) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return new URLSearchParams(`x=${raw}`).get('x') as string;
  }
}

/** Splits a request target into its path and its query string (without the `?`). */
export function splitTarget(target: string): [path: string, query: string] {
  const q = target.indexOf('?');
  return q === -1 ? [target, ''] : [target.slice(0, q), target.slice(q + 1)];
}

/**
 * A boolean flag of the platform: `True`/`False` in any case (docs/contract.md §1 `endOtherSessions`).
 * Undefined for anything else, so the caller can refuse it.
 */
export function parseFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return false;
  const lower = value.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return undefined;
}
