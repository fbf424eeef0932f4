/** What the endpoints share: the registry, the token store and the configured scope. */
import type { GrantContext } from '../grants/grant.js';

export interface ServiceContext extends GrantContext {
  /** The single supported scope (docs/contract.md §1). */
  scope: string;
}
