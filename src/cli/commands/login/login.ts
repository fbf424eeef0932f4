/**
 * `tokencli login`: the browser login (authorization code + PKCE, docs/contract.md §2.5) of the session
 * layer (src/session/login.ts), with the CLI's secrets and its words for the result.
 */
import { UsageError } from '../../../errors.js';
import { browserLogin } from '../../../session/login.js';
import type { Deps } from '../../deps.js';
import { noteNotStoredHint, notStoredWhy } from '../../output/not-stored.js';
import { expirySummary, note, printTokenJson } from '../../output/token-output.js';

export interface LoginOptions {
  redirectUri?: string;
  /** false with `--no-browser`. */
  browser: boolean;
  scope?: string;
  endOtherSessions?: boolean;
  timeoutLogin: string;
  clientSecretStdin?: boolean;
  json?: boolean;
  /** Refresh tokens unmasked in the JSON (docs/contract.md §2.6). */
  showTokens?: boolean;
}

/** `--timeout-login SECONDS`: how long to wait for the browser (default 300). */
export function parseLoginTimeout(raw: string): number {
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(seconds > 0) || seconds > 86_400) {
    throw new UsageError(
      `--timeout-login: "${raw}" is not a number of seconds`,
      'give a number of seconds between 1 and 86400, e.g. --timeout-login 600',
    );
  }
  return Math.round(seconds * 1000);
}

export async function run(options: LoginOptions, deps: Deps): Promise<void> {
  const timeoutMs = parseLoginTimeout(options.timeoutLogin);
  const session = deps.session({ redirectUri: options.redirectUri });
  const result = await browserLogin(
    session,
    {
      scope: options.scope,
      endOtherSessions: options.endOtherSessions === true,
      timeoutMs,
      openBrowser: options.browser,
      // The paste fallback needs a person at a terminal; piped stdin (a secret, /dev/null) is not one.
      pasteInput: deps.io.stdinIsTTY && !options.clientSecretStdin ? deps.io.stdin : undefined,
    },
    deps.secrets(options),
  );
  const { record } = result;
  const settings = await session.settings();
  const { profile } = settings;
  if (options.json) printTokenJson(deps, record, profile, 'authorization_code', options.showTokens);
  const who = record.email ? ` as ${record.email}` : '';
  if (result.stored) {
    note(deps, `Logged in${who} (profile ${profile}). ${expirySummary(record)}`);
    return;
  }
  // A login that will not last must not read like one that does (the next `token` finds nothing).
  note(
    deps,
    `Logged in${who}, but the tokens were not stored: ${notStoredWhy(result.notStored, settings)}. ${expirySummary(record)}`,
  );
  noteNotStoredHint(deps, result.notStored, settings);
}
