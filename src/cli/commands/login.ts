/**
 * `tokencli login`: the browser login (authorization code + PKCE, SPEC.md §2.5). The flow itself
 * lives in src/login; this command resolves the settings, gets the client secret *before* the
 * browser step (a prompt after it would let the 20-second code expire), exchanges the code the
 * moment it arrives and stores the result.
 */
import type { Readable } from 'node:stream';
import { UsageError } from '../../errors.js';
import type { AuthorizationGrant } from '../../login/login-flow.js';
import { GrantType } from '../../oauth/types.js';
import type { TokenRecord } from '../../store/types.js';
import type { Deps } from '../deps.js';
import { keepsInProfile, rememberProfile } from '../profile-store.js';
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
  /** Refresh tokens unmasked in the JSON (SPEC.md §2.6). */
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

/** Throws the abort reason once Ctrl-C was pressed, so nothing is stored after it (SPEC.md §2.5). */
function stopIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

export async function run(options: LoginOptions, deps: Deps): Promise<void> {
  const timeoutMs = parseLoginTimeout(options.timeoutLogin);
  const warn = (line: string) => note(deps, `warning: ${line}`);
  const record = await browserLogin(
    deps,
    {
      redirectUri: options.redirectUri,
      scope: options.scope,
      endOtherSessions: options.endOtherSessions === true,
      timeoutMs,
      clientSecretFromStdin: options.clientSecretStdin === true,
      openBrowser: options.browser,
      // The paste fallback needs a person at a terminal; piped stdin (a secret, /dev/null) is not one.
      pasteInput: deps.io.stdinIsTTY && !options.clientSecretStdin ? deps.io.stdin : undefined,
    },
    {
      showUrl: (url) => deps.io.stderr.write(`  ${url}\n`),
      info: (line) => note(deps, line),
      warn,
    },
  );
  const profile = (await deps.settings()).profile;
  if (options.json) printTokenJson(deps, record, profile, 'authorization_code', options.showTokens);
  const who = record.email ? ` as ${record.email}` : '';
  note(deps, `Logged in${who} (profile ${profile}). ${expirySummary(record)}`);
}

export interface BrowserLoginOptions {
  redirectUri?: string | undefined;
  scope?: string | undefined;
  endOtherSessions: boolean;
  timeoutMs: number;
  clientSecretFromStdin: boolean;
  /** Whether to open a browser (through `deps.openBrowser`) or only show the URL. */
  openBrowser: boolean;
  /** Where a pasted redirect URL may come from (a terminal); none when undefined. */
  pasteInput?: Readable | undefined;
}

export interface BrowserLoginUi {
  /** The authorize URL, shown in every case (SPEC.md §2.5). */
  showUrl(url: string): void;
  info(line: string): void;
  warn(line: string): void;
}

/**
 * The browser login of SPEC.md §2.5, shared by `tokencli login` and the library's `login`: the
 * client secret first (a prompt after the browser step would let the 20-second code expire), the
 * flow, the code exchanged the moment it arrives, the record stored under the profile lock.
 */
export async function browserLogin(
  deps: Deps,
  options: BrowserLoginOptions,
  ui: BrowserLoginUi,
): Promise<TokenRecord> {
  const { timeoutMs } = options;
  const settings = await deps.settings({ redirectUri: options.redirectUri });
  const service = await deps.service();
  const store = await deps.store();
  const client = await deps.client(await deps.clientSecret(options.clientSecretFromStdin));
  const [{ runLoginFlow }, { requestToken }] = await Promise.all([
    import('../../login/login-flow.js'),
    import('../../oauth/token-request.js'),
  ]);

  const exchange = async (grant: AuthorizationGrant) => {
    // At once and exactly once: the code is valid for 20 s and a single use (SPEC.md §1 rule 3).
    const tokens = await requestToken(
      client,
      { grant_type: GrantType.authorizationCode, ...grant },
      { endOtherSessions: options.endOtherSessions, signal: deps.signal },
    );
    const record: TokenRecord = toRecord(tokens, {
      ...service,
      grant: 'authorization_code',
      now: deps.now(),
    });
    record.redirect_uri ??= grant.redirect_uri;
    stopIfInterrupted(deps.signal);
    // The profile lock keeps a concurrent `tokencli token` refresh from overwriting the new login.
    // Flags naming another service than the profile's are for this run only (profile-store.ts).
    if (keepsInProfile(settings)) {
      await deps.withProfileLock(() => store.setTokens(settings.profile, record));
      await rememberProfile(deps);
    }
    const who = record.email ? ` as ${record.email}` : '';
    return { result: record, summary: `You are logged in${who}.` };
  };

  return runLoginFlow(
    {
      baseUrl: service.baseUrl,
      clientId: service.clientId,
      redirectUri: settings.redirectUri,
      scope: options.scope,
      endOtherSessions: options.endOtherSessions,
      timeoutMs,
    },
    {
      showUrl: ui.showUrl,
      info: ui.info,
      warn: ui.warn,
      openBrowser: options.openBrowser ? (url) => deps.openBrowser(url, ui.warn) : undefined,
      pasteInput: options.pasteInput,
      signal: deps.signal,
    },
    exchange,
  );
}
