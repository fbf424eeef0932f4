/**
 * What a session has to say besides its result: warnings and progress as structured events (a
 * code and its fields), worded by whoever shows them — the CLI on stderr (src/cli/output/session-events.ts),
 * the library's caller through its `onEvent`.
 */
import type { StoreKind } from '../store/types.js';
import type { ServiceOverride } from './settings.js';

export type SessionEvent =
  /** A line the credential store has to say (a damaged entry set aside), already worded. */
  | { code: 'store_warning'; message: string }
  /** The default store fell back to the file (said once per profile; recorded in the config). */
  | { code: 'store_fallback'; profile: string; reason: string; filePath: string }
  /** Options or variables name another service than the profile recorded: used for this session only. */
  | { code: 'service_override'; profile: string; overrides: ServiceOverride[] }
  /** The token given, cached or new, has a whole life not longer than the minimum TTL (half counts then). */
  | { code: 'min_ttl_too_long'; minTtlSeconds: number; lifeSeconds: number }
  /** The service refused the refresh token; client credentials are tried next. */
  | { code: 'refresh_refused'; message: string }
  /** The browser login's authorize URL, to show in every case (docs/contract.md §2.5). */
  | { code: 'login_url'; url: string }
  /** Progress of the browser login ("Waiting up to 300 s…"), already worded by src/login. */
  | { code: 'login_progress'; message: string }
  /**
   * The browser login waits for the redirect to `redirectUri` (the listener is up, the URL was
   * announced and opened where asked), for at most `timeoutSeconds`; for a program to show.
   */
  | { code: 'login_waiting'; redirectUri: string; timeoutSeconds: number }
  /** The browser login received a code (`redirect`, or `paste`d) and exchanges it now. */
  | { code: 'login_received'; via: 'redirect' | 'paste' }
  /** A warning of the browser login (a browser that did not open), already worded by src/login. */
  | { code: 'login_warning'; message: string }
  /**
   * The authorize endpoint answered the check made before the browser step with a status that
   * neither shows a login page nor rules one out (a gateway asking the browser to sign in, a bot
   * check, a busy service): the login waits for the browser anyway.
   */
  | { code: 'authorize_check_inconclusive'; status: number }
  /**
   * The tokens were stored with a refresh token, but the client secret was given for this session
   * only and the profile's store holds none: renewing them later needs the secret given again.
   */
  | { code: 'client_secret_not_stored'; profile: string; store: StoreKind };

export type SessionEventCode = SessionEvent['code'];

export type EventSink = (event: SessionEvent) => void;
