/**
 * What `tokencli token --format …` prints (README "In scripts"): the bare token, an HTTP header
 * line for `curl -H @-`, the JSON document of docs/contract.md §2.6, or `NAME='value'` lines that are safe
 * both for `eval` in a POSIX shell and in a `.env` file.
 */
import { TokencliError, UsageError } from '../../errors.js';
import type { TokenSource } from '../../oauth/types.js';
import type { TokenRecord } from '../../store/types.js';
import type { TOKEN_FORMATS } from '../commands/token/token-command.js';
import { tokenJson } from './token-json.js';

export type TokenFormat = (typeof TOKEN_FORMATS)[number];

/** `--json` is an alias of `--format json`; anything else beside it is a contradiction. */
export function chooseTokenFormat(options: { format?: string; json?: boolean }): TokenFormat {
  const { format, json } = options;
  if (json && format !== undefined && format !== 'json') {
    throw new UsageError(`--json and --format ${format} contradict each other`, 'give one of them');
  }
  if (json) return 'json';
  // The parser has checked the value against TOKEN_FORMATS (commands/token/token-command.ts) already.
  return (format as TokenFormat | undefined) ?? 'token';
}

// Visible ASCII without the single quote: the parser admits only visible ASCII (RFC 6750 §2.1's
// b64token is narrower still), and a quote could end the quoting in `env` output.
const PRINTABLE_VALUE = /^[\x21-\x26\x28-\x7e]+$/;

function checkedValue(name: string, value: string): string {
  if (!PRINTABLE_VALUE.test(value)) {
    throw new TokencliError(`the ${name} holds characters that cannot be printed safely in this format`, {
      code: 'service_unavailable',
      hint: '--format token and --format json print it as it is',
    });
  }
  return value;
}

/** `NAME='value'`: literal in POSIX sh (`eval`, `source`) and in dotenv files alike. */
const assignment = (name: string, value: string) => `${name}='${value}'`;

export function renderToken(
  format: TokenFormat,
  record: TokenRecord,
  profile: string,
  source: TokenSource,
  /**
   * The clock, read only by the format that shows the time left (json): making a process's first
   * Date costs V8 a reading of the time zone, which printing a cached token need not pay.
   */
  now: () => Date,
  /** `--show-tokens`: the refresh token unmasked in the JSON (the access token is always shown). */
  showTokens = false,
): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(tokenJson(record, profile, source, now(), showTokens), null, 2)}\n`;
    case 'header':
      // RFC 6750 §2.1 spells the scheme "Bearer", whatever token_type the service answered.
      return `Authorization: Bearer ${checkedValue('access token', record.access_token)}\n`;
    case 'env':
      return [
        assignment('TOKENCLI_ACCESS_TOKEN', checkedValue('access token', record.access_token)),
        assignment('TOKENCLI_TOKEN_EXPIRES_AT', checkedValue('expiry time', record.expires_at)),
        '',
      ].join('\n');
    case 'token':
      return `${record.access_token}\n`;
  }
}
