/**
 * `tokencli login`: the browser login (authorization code + PKCE, SPEC.md §2.5). The flow itself
 * lives in src/login; this command resolves the settings, gets the client secret *before* the
 * browser step (a prompt after it would let the 20-second code expire), exchanges the code the
 * moment it arrives and stores the result.
 */
import { UsageError } from '../../errors.js';
import type { AuthorizationGrant } from '../../login/login-flow.js';
import { GrantType } from '../../oauth/types.js';
import type { TokenRecord } from '../../store/types.js';
import type { CommandContext } from '../context.js';
import { tokenLockPath } from '../obtain-token.js';
import { openCredentialStore, resolveClientSecret, serviceClient } from '../service.js';
import { requireService, resolveSettings } from '../settings.js';
import { expirySummary, note, printTokenJson } from '../token-output.js';
import { toRecord } from '../token-record.js';

export interface LoginOptions {
  redirectUri?: string;
  /** false with `--no-browser`. */
  browser: boolean;
  scope?: string;
  endOtherSessions?: boolean;
  timeoutLogin: string;
  clientSecretStdin?: boolean;
  json?: boolean;
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

/** Throws the abort reason once Ctrl-C was pressed, so nothing is stored after it (SPEC.md §2.5). */
function stopIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

export async function run(options: LoginOptions, ctx: CommandContext): Promise<void> {
  const timeoutMs = parseLoginTimeout(options.timeoutLogin);
  const settings = await resolveSettings(ctx, { redirectUri: options.redirectUri });
  const service = requireService(settings);
  const store = await openCredentialStore(settings, ctx);
  const clientSecret = await resolveClientSecret(
    ctx,
    store,
    settings.profile,
    options.clientSecretStdin === true,
  );
  const client = serviceClient(settings, ctx, service, clientSecret);
  const [{ runLoginFlow }, { openBrowser }, { requestToken }, { withFileLock }] = await Promise.all([
    import('../../login/login-flow.js'),
    import('../../login/open-browser.js'),
    import('../../oauth/token-request.js'),
    import('../../fs/lock.js'),
  ]);

  const warn = (line: string) => note(ctx, `warning: ${line}`);
  const exchange = async (grant: AuthorizationGrant) => {
    // At once and exactly once: the code is valid for 20 s and a single use (SPEC.md §1 rule 3).
    const tokens = await requestToken(
      client,
      { grant_type: GrantType.authorizationCode, ...grant },
      { endOtherSessions: options.endOtherSessions === true, signal: ctx.signal },
    );
    const record: TokenRecord = toRecord(tokens, {
      ...service,
      grant: 'authorization_code',
      now: new Date(),
    });
    record.redirect_uri ??= grant.redirect_uri;
    stopIfInterrupted(ctx.signal);
    const save = () => store.setTokens(settings.profile, record);
    // The profile lock keeps a concurrent `tokencli token` refresh from overwriting the new login.
    if (store.kind === 'none') await save();
    else
      await withFileLock(tokenLockPath(settings), save, {
        timeoutMs: settings.timeoutMs * 3 + 10_000,
        signal: ctx.signal,
      });
    const who = record.email ? ` as ${record.email}` : '';
    return { result: record, summary: `You are logged in${who}.` };
  };

  const record = await runLoginFlow(
    {
      baseUrl: service.baseUrl,
      clientId: service.clientId,
      redirectUri: settings.redirectUri,
      scope: options.scope,
      endOtherSessions: options.endOtherSessions === true,
      timeoutMs,
    },
    {
      showUrl: (url) => ctx.io.stderr.write(`  ${url}\n`),
      info: (line) => note(ctx, line),
      warn,
      openBrowser: options.browser ? (url) => openBrowser(url, { env: ctx.io.env, warn }) : undefined,
      // The paste fallback needs a person at a terminal; piped stdin (a secret, /dev/null) is not one.
      pasteInput: ctx.io.stdinIsTTY && !options.clientSecretStdin ? ctx.io.stdin : undefined,
      signal: ctx.signal,
    },
    exchange,
  );

  if (options.json) printTokenJson(ctx, record, settings.profile, 'authorization_code');
  const who = record.email ? ` as ${record.email}` : '';
  note(ctx, `Logged in${who} (profile ${settings.profile}). ${expirySummary(record)}`);
}
