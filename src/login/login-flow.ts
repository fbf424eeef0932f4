/**
 * The browser login of docs/contract.md §2.5 from start to end: PKCE and state, the loopback listener,
 * the authorize URL (printed every time, opened unless told not to), then whichever comes first of
 * the redirect, a pasted URL or code, the timeout and Ctrl-C; the code is exchanged at once (it
 * lives 20 s, docs/contract.md §1 rule 3) and the waiting browser tab is told how it ended.
 *
 * Nothing here prints: lines go to the injected `info` / `warn`, which the command writes to stderr.
 */
import type { Readable } from 'node:stream';
import { InterruptedError, TokencliError } from '../errors.js';
import { formatSeconds } from '../text/seconds.js';
import { buildAuthorizeUrl } from './authorize-url.js';
import { pages } from './callback-page.js';
import { LoopbackListener, type ReceivedCode } from './loopback-listener.js';
import { waitForPastedCode } from './paste-prompt.js';
import { createPkcePair, createState, type RandomBytes } from './pkce.js';
import { parseRedirectUri } from './redirect-uri.js';

/** What the wait for the browser's opener gives when the login ended (or failed) first. */
const WAIT_ENDED = Symbol('wait ended');

export interface LoginFlowSettings {
  baseUrl: string;
  clientId: string;
  /** A loopback http URI; port 0 = any free port. */
  redirectUri: string;
  scope?: string | undefined;
  endOtherSessions?: boolean | undefined;
  /** How long to wait for the browser (`--timeout-login`, default 300 s). */
  timeoutMs: number;
}

export interface LoginFlowDeps {
  /** The authorize URL; printed on stderr in every case, even with `--quiet` (docs/contract.md §2.5). */
  showUrl: (url: string) => void;
  /** Progress lines for stderr. */
  info: (line: string) => void;
  /** Problems that do not stop the flow (browser not opened, a stray redirect, a bad paste). */
  warn: (line: string) => void;
  /**
   * Opens the URL in a browser; absent with `--no-browser`. Must not throw for a failed launch;
   * resolves `false` when no browser was started (it warned why), anything else when one was.
   */
  openBrowser?: ((url: string) => Promise<unknown>) | undefined;
  /**
   * Checks the authorize URL before it is shown or opened; rejects to end the login at once (the
   * service cannot be reached, or refused the request so no browser could log in). Absent: no check.
   */
  checkUrl?: ((url: string) => Promise<void>) | undefined;
  /** The terminal to read a pasted redirect URL or code from; absent when stdin is not a terminal. */
  pasteInput?: Readable | undefined;
  /**
   * Structured progress for a program that shows it its own way (the library's `onEvent`): the
   * wait has begun, then a code has come (from the redirect or a paste) and is being exchanged.
   */
  progress?: ((event: LoginFlowProgress) => void) | undefined;
  /** Ctrl-C: stops waiting, closes the listener, rejects with the signal's reason. */
  signal: AbortSignal;
  /** Randomness for state and PKCE; tests may fix it. */
  random?: RandomBytes | undefined;
}

/** The steps of the login a caller may show besides the URL (`showUrl`). */
export type LoginFlowProgress =
  /** Listening on `redirectUri` for the browser, for at most `timeoutMs`. */
  | { step: 'waiting'; redirectUri: string; timeoutMs: number }
  /** A code came, through the redirect or pasted: it is exchanged now. */
  | { step: 'received'; via: 'redirect' | 'paste' };

/** The parameters of the authorization_code exchange (docs/contract.md §2.4). */
export interface AuthorizationGrant {
  code: string;
  redirect_uri: string;
  code_verifier: string;
}

/** What the exchange step reports back, so the browser tab can say who logged in. */
export interface ExchangeOutcome<T> {
  result: T;
  /** One sentence for the success page, e.g. "You are logged in as demo@example.com." */
  summary: string;
}

function interrupted(signal: AbortSignal): unknown {
  return signal.reason instanceof TokencliError ? signal.reason : new InterruptedError(signal.reason);
}

function timedOut(timeoutMs: number): TokencliError {
  return new TokencliError(
    `timed out after ${formatSeconds(timeoutMs)} s waiting for the login to finish in the browser`,
    {
      code: 'login_incomplete',
      reason: 'login_timeout',
      details: { seconds: formatSeconds(timeoutMs) },
    },
  );
}

/**
 * Runs the login and calls `exchange` with the code the moment it arrives. Resolves with what
 * `exchange` returned; rejects with a TokencliError (exit 2 bad redirect URI or taken port, 3 the
 * service answered with an error, 6 denied or timed out) or the abort reason. The listener is closed
 * in every case, after the browser tab got its page.
 */
export async function runLoginFlow<T>(
  settings: LoginFlowSettings,
  deps: LoginFlowDeps,
  exchange: (grant: AuthorizationGrant) => Promise<ExchangeOutcome<T>>,
): Promise<T> {
  const { signal } = deps;
  if (signal.aborted) throw interrupted(signal);
  const redirect = parseRedirectUri(settings.redirectUri);
  const state = createState(deps.random);
  const pkce = createPkcePair(deps.random);
  const listener = await LoopbackListener.start({
    redirect,
    expectedState: state,
    onIgnored: (why) => deps.warn(`ignored ${why}; still waiting`),
  });

  const stopWaiting = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const url = buildAuthorizeUrl({
      baseUrl: settings.baseUrl,
      clientId: settings.clientId,
      redirectUri: listener.redirectUri,
      state,
      codeChallenge: pkce.challenge,
      scope: settings.scope,
      endOtherSessions: settings.endOtherSessions,
    });
    // Before anything is shown or opened: a login that cannot succeed fails now, not after the wait.
    await deps.checkUrl?.(url);
    deps.info('Open this URL in a browser to log in:');
    deps.showUrl(url);
    // `pasted` marks the code that came from the terminal rather than the redirect.
    const waits: Promise<ReceivedCode & { pasted?: boolean }>[] = [
      listener.waitForCode(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timedOut(settings.timeoutMs)), settings.timeoutMs);
      }),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(interrupted(signal));
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ];
    if (deps.openBrowser) {
      // Said only once a browser was started: where none can be (no display, a BROWSER that is
      // missing) the opener's one warning is the whole story, not a promise and then its denial.
      // The wait is cut short by the redirect itself, for an opener that finishes the login first.
      const opening = deps.openBrowser(url).catch((error: unknown) => {
        deps.warn(`could not open a browser: ${String(error)}`);
        return false;
      });
      const ended = Promise.race(waits).then(
        () => WAIT_ENDED,
        () => WAIT_ENDED,
      );
      const opened = await Promise.race([opening, ended]);
      if (opened !== false && opened !== WAIT_ENDED) deps.info('Opening it in your browser…');
    }
    if (deps.pasteInput) {
      // The service's codes live 20 seconds (docs/contract.md §1): a paste that takes longer fails at the exchange.
      deps.info(
        'If the browser is on another machine, paste the URL it ends up on (or the code) here at once; codes expire after 20 seconds:',
      );
      waits.push(
        waitForPastedCode({
          input: deps.pasteInput,
          expectedState: state,
          warn: deps.warn,
          signal: stopWaiting.signal,
        }).then((code) => ({ code, respond: async () => {}, pasted: true })),
      );
    }
    deps.info(
      `Waiting up to ${formatSeconds(settings.timeoutMs)} s for the login to finish (Ctrl-C to cancel)…`,
    );
    deps.progress?.({ step: 'waiting', redirectUri: listener.redirectUri, timeoutMs: settings.timeoutMs });
    const received = await Promise.race(waits);
    // Whichever came first won: the others stop now (the paste prompt lets go of stdin).
    stopWaiting.abort();
    deps.progress?.({ step: 'received', via: received.pasted === true ? 'paste' : 'redirect' });

    let outcome: ExchangeOutcome<T>;
    try {
      outcome = await exchange({
        code: received.code,
        redirect_uri: listener.redirectUri,
        code_verifier: pkce.verifier,
      });
    } catch (error) {
      await received.respond(signal.aborted ? pages.interrupted() : pages.exchangeFailed());
      throw error;
    }
    await received.respond(pages.success(outcome.summary));
    return outcome.result;
  } finally {
    stopWaiting.abort();
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    await listener.close();
  }
}
