/**
 * The concurrent-session rule (docs/contract.md §1 rule 10): a `single_session` user who already holds a
 * session cannot start another unless the request says `endOtherSessions=True`, which ends the
 * user's other sessions — for every user, single-session or not.
 */

import { sessionConflictError } from '../../protocol/error-bodies.js';
import type { JsonReply } from '../http/reply.js';
import type { UserEntry } from '../registry.js';
import type { TokenStore } from '../token-store.js';

/**
 * Call before issuing the tokens of a new session (a login: authorization code, client
 * credentials, SSO). Returns the 403 subcode 018 reply when the rule refuses, else null after
 * ending the other sessions if asked to.
 */
export function beginSession(
  store: TokenStore,
  user: UserEntry,
  endOtherSessions: boolean,
): JsonReply | null {
  if (endOtherSessions) {
    store.endSessions(user);
    return null;
  }
  if (user.singleSession && store.hasLiveSession(user)) return sessionConflictError();
  return null;
}
