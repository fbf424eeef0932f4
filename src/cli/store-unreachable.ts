/**
 * What a command says when the store of a profile it reports on cannot be reached here: what that
 * store holds is unknown, which is not a success (docs/contract.md §2.6, exit 4). Shared by
 * `status` and `profile show`, so both end such a run alike.
 */
import { TokencliError } from '../errors.js';

export interface UnreachableProfile {
  profile: string;
  /** Why the store cannot be reached, as the store layer said it. */
  why: string | undefined;
}

export function storesUnreachable(profiles: readonly UnreachableProfile[]): TokencliError {
  const names = profiles.map((p) => `"${p.profile}"`).join(', ');
  const first = profiles[0];
  const message =
    profiles.length === 1
      ? `the store of profile ${names} cannot be reached here, so what it holds is unknown`
      : `the stores of profiles ${names} cannot be reached here, so what they hold is unknown`;
  return new TokencliError(message, {
    code: 'store',
    reason: 'profile_store_unreachable',
    details: { profile: first?.profile, why: first?.why },
  });
}
