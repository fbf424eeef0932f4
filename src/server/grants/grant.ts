/** What a grant handler receives and returns: plain data, no HTTP (SPEC.md §1 create token). */

import type { Params } from '../http/params.js';
import type { JsonReply } from '../http/reply.js';
import type { AppEntry, Registry } from '../registry.js';
import type { TokenStore } from '../token-store.js';

/** The service state every grant works with. */
export interface GrantContext {
  registry: Registry;
  store: TokenStore;
}

/** A token request whose client is already authenticated and allowed this grant. */
export interface GrantRequest {
  app: AppEntry;
  params: Params;
  /** `endOtherSessions=True` (SPEC.md §1 rule 10). */
  endOtherSessions: boolean;
}

/** Answers one grant type: a token response or an error reply. */
export type GrantHandler = (request: GrantRequest, context: GrantContext) => JsonReply;
