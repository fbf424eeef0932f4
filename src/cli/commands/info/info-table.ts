/** The readable table of `tokencli info` (docs/contract.md §2.6). */
import type { TokenInfo } from '../../../oauth/types.js';
import { describeExpiry, describeExpiryFully, maskToken } from '../../output/format.js';

export interface Painter {
  ok(text: string): string;
  bad(text: string): string;
  dim(text: string): string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

export function renderInfoTable(
  info: TokenInfo,
  options: { showTokens: boolean; now: Date; paint: Painter },
): string {
  const { now, paint } = options;
  const token = (value: unknown) => {
    const t = text(value);
    return t === undefined ? undefined : options.showTokens ? t : maskToken(t);
  };
  const expiry = (seconds: unknown) =>
    typeof seconds === 'number' ? describeExpiry(new Date(now.getTime() + seconds * 1000), now) : undefined;
  const status = text(info.status);
  const refresh = token(info.refresh_token);
  const refreshSeconds = info.refresh_token_expires_in;
  const refreshExpiry =
    typeof refreshSeconds === 'number'
      ? describeExpiryFully(new Date(now.getTime() + refreshSeconds * 1000), now)
      : undefined;

  const rows: Array<[string, string | undefined]> = [
    ['email', text(info.email)],
    ['application', text(info.app_name)],
    [
      'status',
      status === undefined ? undefined : status === 'approved' ? paint.ok(status) : paint.bad(status),
    ],
    ['scope', text(info.scope)],
    ['token type', text(info.token_type)],
    ['access token', token(info.access_token)],
    ['expires', expiry(info.expires_in)],
    [
      'refresh token',
      refresh === undefined ? undefined : refreshExpiry ? `${refresh}, ${refreshExpiry}` : refresh,
    ],
    ['redirect URI', text(info.redirect_uri)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows
    .filter((row): row is [string, string] => row[1] !== undefined)
    .map(([label, value]) => `${paint.dim(label.padEnd(width))}  ${value}`)
    .join('\n');
}
