/** What a grant handler receives and returns: plain data, no HTTP (docs/contract.md §1 create token). */

import type { ReplayCache } from '../../saml/replay-cache.js';
import type { Params } from '../http/params.js';
import type { JsonReply } from '../http/reply.js';
import type { AppEntry, Registry } from '../registry.js';
import type { TokenStore } from '../token-store.js';

/** The service state every grant works with. */
export interface GrantContext {
  registry: Registry;
  store: TokenStore;
  /**
   * This service's base URL (`http://HOST:PORT`), set once it listens. SAML assertions must name
   * it, or its token endpoint, as their Audience (docs/contract.md §3).
   */
  baseUrl: string;
  /** Assertion IDs already accepted: one cache per service instance, purged with the tokens. */
  samlReplay: ReplayCache;
  /** Wall-clock time in epoch milliseconds, for the SAML validity window. Tests move it. */
  clock: () => number;
  /** The service's log (no secrets), for failures an operator must see; absent = no log. */
  log?: ((line: string) => void) | undefined;
}

/** A token request whose client is already authenticated and allowed this grant. */
export interface GrantRequest {
  app: AppEntry;
  params: Params;
  /** `endOtherSessions=True` (docs/contract.md §1 rule 10). */
  endOtherSessions: boolean;
}

/**
 * Answers one grant type: a token response or an error reply. Synchronous for the hot grants; a
 * grant that loads code on first use (SAML) answers with a promise, and must do everything after
 * its last `await` in one synchronous step, so concurrent requests cannot interleave.
 */
export type GrantHandler = (request: GrantRequest, context: GrantContext) => JsonReply | Promise<JsonReply>;
