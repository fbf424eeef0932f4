/**
 * Checks that a value read back from a store is a well-formed TokenRecord (docs/contract.md §2.7). Stores are
 * files and keychain entries anyone can edit: a record of the wrong shape is reported and treated as
 * absent rather than handed to the commands.
 */
import type { TokenRecord } from './types.js';

const GRANTS: ReadonlySet<string> = new Set<TokenRecord['grant']>([
  'refresh_token',
  'client_credentials',
  'authorization_code',
  'saml2-bearer',
]);

const REQUIRED_STRINGS = ['base_url', 'client_id', 'access_token', 'token_type'] as const;
const OPTIONAL_STRINGS = ['refresh_token', 'email', 'redirect_uri'] as const;
const OPTIONAL_DATES = ['refresh_token_expires_at', 'access_token_refused_at'] as const;

function isDate(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

/**
 * Returns the record (with only the known fields) or, when it is malformed, a short reason naming
 * the first bad field (never its value: it may be a token).
 */
export function parseTokenRecord(value: unknown): { record: TokenRecord } | { problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: 'the record is not an object' };
  }
  const v = value as Record<string, unknown>;
  for (const key of REQUIRED_STRINGS) {
    if (typeof v[key] !== 'string' || v[key] === '')
      return { problem: `"${key}" is missing or not a string` };
  }
  for (const key of ['expires_at', 'obtained_at'] as const) {
    if (!isDate(v[key])) return { problem: `"${key}" is missing or not a date` };
  }
  if (typeof v.grant !== 'string' || !GRANTS.has(v.grant)) return { problem: '"grant" is not a known grant' };
  for (const key of OPTIONAL_STRINGS) {
    if (v[key] !== undefined && typeof v[key] !== 'string') return { problem: `"${key}" is not a string` };
  }
  for (const key of OPTIONAL_DATES) {
    if (v[key] !== undefined && !isDate(v[key])) return { problem: `"${key}" is not a date` };
  }
  const record: TokenRecord = {
    base_url: v.base_url as string,
    client_id: v.client_id as string,
    access_token: v.access_token as string,
    token_type: v.token_type as string,
    expires_at: v.expires_at as string,
    grant: v.grant as TokenRecord['grant'],
    obtained_at: v.obtained_at as string,
  };
  for (const key of OPTIONAL_STRINGS) {
    if (typeof v[key] === 'string') record[key] = v[key];
  }
  for (const key of OPTIONAL_DATES) {
    if (typeof v[key] === 'string') record[key] = v[key];
  }
  return { record };
}

/** {@link parseTokenRecord} of a record stored as JSON text (a keychain entry). */
export function parseTokenRecordText(text: string): { record: TokenRecord } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'it is not valid JSON' };
  }
  return parseTokenRecord(value);
}
