/** How `refresh`, `sso` and `login` report a new token: JSON on stdout, or a summary on stderr. */
import type { TokenSource } from '../../oauth/types.js';
import type { TokenRecord } from '../../store/types.js';
import { formatDurationShort } from '../../text/duration.js';
import type { CommandContext } from '../context.js';
import { secondsUntil } from './format.js';
import { noteLine } from './prefixes.js';
import { tokenJson } from './token-json.js';

export function printTokenJson(
  ctx: CommandContext,
  record: TokenRecord,
  profile: string,
  source: TokenSource,
  showTokens = false,
): void {
  const json = tokenJson(record, profile, source, new Date(), showTokens);
  ctx.io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
}

/** "Access token expires in 59m; refresh token in 29d." */
export function expirySummary(record: TokenRecord, now: Date = new Date()): string {
  const access = `Access token expires in ${formatDurationShort(secondsUntil(record.expires_at, now) ?? 0)}`;
  const refreshIn = secondsUntil(record.refresh_token_expires_at, now);
  return refreshIn === undefined
    ? `${access}.`
    : `${access}; refresh token in ${formatDurationShort(refreshIn)}.`;
}

/** A progress line on stderr, silenced by `--quiet`; a `warning:` or `hint:` prefix coloured as everywhere. */
export function note(ctx: CommandContext, line: string): void {
  noteLine(ctx, line);
}
