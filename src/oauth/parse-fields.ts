/**
 * Field readers shared by the token and token-information parsers. A field of the wrong type makes
 * the whole response unusable: MalformedResponse says which field and what it was instead, and the
 * response reader turns it into a ServiceError (exit 5, docs/contract.md §2.6).
 */

/**
 * A response that is JSON but not the shape expected; `message` names the field and the problem.
 * `reason` is set when the problem is one field's value in what is otherwise the service's answer
 * (`bad_lifetime`, `bad_token_type`): then "check the base URL, a proxy answered" would send the user the wrong way,
 * so src/cli/output/error-hints.ts words another hint for it.
 */
/** A field the service got wrong in an answer that is otherwise its own (not a gateway's). */
export type MalformedReason = 'bad_lifetime' | 'bad_token_type' | 'bad_token_value';

export class MalformedResponse extends Error {
  readonly reason: MalformedReason | undefined;
  constructor(message: string, reason?: MalformedReason) {
    super(message);
    this.name = 'MalformedResponse';
    this.reason = reason;
  }
}

/** The reason of a lifetime the service got wrong: its operator has to fix it, not the user's URL. */
export const BAD_LIFETIME = 'bad_lifetime' as const;

/** The largest lifetime accepted: the service documents `expires_in` as int32. */
export const MAX_SECONDS = 2 ** 31 - 1;

/** `null`, `an array`, `a number`, … for messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function requireObject(json: unknown, what: string): Record<string, unknown> {
  if (!isPlainObject(json))
    throw new MalformedResponse(`the ${what} is ${describeType(json)}, not a JSON object`);
  return json;
}

/** A string field; absent or null → undefined. */
export function optionalString(obj: Record<string, unknown>, name: string): string | undefined {
  const value = obj[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new MalformedResponse(`${name} is ${describeType(value)}, not a string`);
  return value;
}

// RFC 6750 §2.1 b64token, loosened to any visible ASCII: the token goes into an HTTP header and a
// shell's `$(tokencli token)`, where spaces, control characters and non-ASCII would break or inject.
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/** A token field (access or refresh token): a string of visible ASCII; absent, null or "" → undefined. */
export function optionalToken(obj: Record<string, unknown>, name: string): string | undefined {
  const value = optionalString(obj, name);
  if (value === undefined || value === '') return undefined;
  if (!TOKEN_CHARS.test(value)) {
    throw new MalformedResponse(
      `${name} holds characters that are not allowed in a token (spaces, control or non-ASCII characters)`,
      'bad_token_value',
    );
  }
  return value;
}

/** Digits with an optional decimal fraction ("3599", "3599.0", "3599.5"); no sign, no exponent. */
const DECIMAL_SECONDS = /^\s*\d+(?:\.\d+)?\s*$/;

/**
 * A lifetime in seconds: a JSON number, or a string of decimal digits with an optional fraction
 * (some gateways stringify numbers; accepting "3599" or "3599.0" costs nothing and is
 * unambiguous). Fractions are rounded down. Negative, non-numeric and values above int32 are
 * rejected, with BAD_LIFETIME. Absent or null → undefined.
 */
export function optionalSeconds(obj: Record<string, unknown>, name: string): number | undefined {
  const value = obj[name];
  if (value === undefined || value === null) return undefined;
  let seconds: number;
  if (typeof value === 'number') seconds = value;
  else if (typeof value === 'string' && DECIMAL_SECONDS.test(value)) seconds = Number(value);
  else if (typeof value === 'string') {
    throw new MalformedResponse(
      `${name} is the string ${quote(value)}, not a number of seconds`,
      BAD_LIFETIME,
    );
  } else {
    throw new MalformedResponse(`${name} is ${describeType(value)}, not a number of seconds`, BAD_LIFETIME);
  }
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_SECONDS) {
    throw new MalformedResponse(
      `${name} is ${shorten(String(value).trim(), 40)}, outside 0 to ${MAX_SECONDS} seconds`,
      BAD_LIFETIME,
    );
  }
  return Math.floor(seconds);
}

/** ISO 8601 time `seconds` after `from` (expires_at: receipt time + expires_in, docs/contract.md §2.6). */
export function addSeconds(from: Date, seconds: number): string {
  return new Date(from.getTime() + seconds * 1000).toISOString();
}

function shorten(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

function quote(value: string): string {
  return JSON.stringify(shorten(value, 20));
}
