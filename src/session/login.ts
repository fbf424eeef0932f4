/**
 * The browser login (authorization code + PKCE S256, docs/contract.md §2.5; RFC 6749 §4.1,
 * RFC 7636, RFC 8252): the client secret first (asked after the browser step, the 20-second code
 * would expire), the flow of src/login, the code exchanged the moment it arrives, the record saved
 * for the profile. Progress leaves as events; prompting and printing are the caller's.
 */
import type { Readable } from 'node:stream';
import { InterruptedError, TokencliError } from '../errors.js';
import type { AuthorizationGrant } from '../login/login-flow.js';
import { GrantType } from '../protocol/grants.js';
import type { TokenRecord } from '../store/types.js';
import { type Kept, keepRecord } from './kept.js';
import type { ProfileTokens } from './profile-tokens.js';
import { toRecord } from './record-from-tokens.js';
import type { SecretSource } from './secret-source.js';
import type { Session } from './session.js';

/** The new tokens and whether they were kept for the profile (and if not, why). */
export type LoginResult = { record: TokenRecord } & Kept;

export interface LoginOptions {
  scope?: string | undefined;
  endOtherSessions: boolean;
  /** How long to wait for the browser. */
  timeoutMs: number;
  /** Whether to open a browser (the session's opener) or only announce the URL. */
  openBrowser: boolean;
  /** Where a pasted redirect URL may come from (a terminal); none when undefined. */
  pasteInput?: Readable | undefined;
  /** Cancels this login (besides the session's own signal): it rejects with code `interrupted`. */
  signal?: AbortSignal | undefined;
}

/**
 * Stored tokens with a refresh token outlive the run, but a client secret given for this run only
 * (docs/contract.md §2.1: only one typed at a prompt is kept) does not: renewing them later fails
 * for want of it unless the profile's store holds one. Said now, not at that later refresh.
 */
async function noteUnstoredSecret(
  session: Session,
  tokens: ProfileTokens,
  record: TokenRecord,
): Promise<void> {
  if (record.refresh_token === undefined || session.clientSecretOrigin() !== 'given') return;
  if (await tokens.store.getClientSecret(tokens.profile)) return;
  session.emit({ code: 'client_secret_not_stored', profile: tokens.profile, store: tokens.store.kind });
}

/**
 * Whatever step a cancelled login was in (the check of the authorize URL, the wait, the exchange),
 * it rejects with code `interrupted`: a caller's own abort reason (a DOMException, anything)
 * becomes the cause of an InterruptedError rather than the rejection itself.
 */
async function cancellable<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!signal.aborted || (error instanceof TokencliError && error.code === 'interrupted')) throw error;
    throw new InterruptedError(error);
  }
}

/** Throws the abort reason once the session was cancelled, so nothing is stored after it. */
function stopIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

export async function browserLogin(
  session: Session,
  options: LoginOptions,
  secrets: SecretSource,
): Promise<LoginResult> {
  const signal = options.signal ? AbortSignal.any([session.signal, options.signal]) : session.signal;
  const tokens = await session.tokens();
  const client = await session.client(await session.clientSecret(secrets));
  const [{ runLoginFlow }, { requestToken }, { checkAuthorizeUrl }] = await Promise.all([
    import('../login/login-flow.js'),
    import('../oauth/token-request.js'),
    import('../oauth/authorize-check.js'),
  ]);

  // A service that is down or a client id it does not know fails now, not after the whole wait for the browser.
  const checkUrl = async (url: string) => {
    const check = await checkAuthorizeUrl(client.http, url, {
      clientId: client.clientId,
      signal,
    });
    if (check.outcome === 'inconclusive') {
      session.emit({ code: 'authorize_check_inconclusive', status: check.status });
    }
  };

  const exchange = async (grant: AuthorizationGrant) => {
    // At once and exactly once: the code is valid for 20 s and a single use (docs/contract.md §1 rule 3).
    const response = await requestToken(
      client,
      { grant_type: GrantType.authorizationCode, ...grant },
      { endOtherSessions: options.endOtherSessions, signal },
    );
    const record = toRecord(response, { ...tokens.service, grant: 'authorization_code', now: session.now() });
    record.redirect_uri ??= grant.redirect_uri;
    stopIfCancelled(signal);
    // The profile lock keeps a concurrent token step's refresh from overwriting the new login.
    const kept = await keepRecord(tokens, record);
    const who = record.email ? ` as ${record.email}` : '';
    const result: LoginResult = { record, ...kept };
    return { result, summary: `You are logged in${who}.` };
  };

  const warn = (message: string) => session.emit({ code: 'login_warning', message });
  const result = await cancellable(signal, () =>
    runLoginFlow(
      {
        baseUrl: tokens.service.baseUrl,
        clientId: tokens.service.clientId,
        redirectUri: tokens.settings.redirectUri,
        scope: options.scope,
        endOtherSessions: options.endOtherSessions,
        timeoutMs: options.timeoutMs,
      },
      {
        showUrl: (url) => session.emit({ code: 'login_url', url }),
        info: (message) => session.emit({ code: 'login_progress', message }),
        warn,
        checkUrl,
        openBrowser: options.openBrowser ? (url) => session.openBrowser(url, warn) : undefined,
        pasteInput: options.pasteInput,
        progress: (step) =>
          session.emit(
            step.step === 'waiting'
              ? {
                  code: 'login_waiting',
                  redirectUri: step.redirectUri,
                  timeoutSeconds: step.timeoutMs / 1000,
                }
              : { code: 'login_received', via: step.via },
          ),
        signal,
      },
      exchange,
    ),
  );
  if (result.stored) await noteUnstoredSecret(session, tokens, result.record);
  return result;
}
