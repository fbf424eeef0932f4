/**
 * Strict checks of what the control API is given, shared by its HTTP endpoints (which answer 400
 * naming the key) and the programmatic handle (which throws a TypeError naming it): a typo in a
 * test's fault must fail the test, not silently inject nothing.
 */

/** A problem with one key of a control request. */
export class ControlInputError extends TypeError {
  constructor(
    /** The offending key, or '' for the body as a whole. */
    readonly key: string,
    message: string,
  ) {
    super(message);
    this.name = 'ControlInputError';
  }
}

/** A plain JSON object, not an array or null. */
export function asObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ControlInputError('', `${what} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** Refuses keys outside `allowed`, naming the first one. */
export function onlyKeys(object: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) {
      throw new ControlInputError(
        key,
        `unknown key "${printable(key)}" in ${what}; ${allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'it takes none'}`,
      );
    }
  }
}

/** An integer within bounds, or undefined when absent. */
export function optionalInteger(
  object: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
): number | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ControlInputError(key, `"${key}" must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** A non-empty string of at most `max` characters, or undefined when absent. */
export function optionalString(object: Record<string, unknown>, key: string, max = 4096): string | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '' || value.length > max) {
    throw new ControlInputError(key, `"${key}" must be a non-empty string of at most ${max} characters`);
  }
  return value;
}

/** One of a fixed set of strings, or undefined when absent. */
export function optionalChoice<T extends string>(
  object: Record<string, unknown>,
  key: string,
  choices: readonly T[],
): T | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw new ControlInputError(key, `"${key}" must be one of ${choices.map((c) => `"${c}"`).join(', ')}`);
  }
  return value as T;
}

/** A key name fit to echo: printable ASCII only, cut short. */
function printable(key: string): string {
  const clean = key.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}
