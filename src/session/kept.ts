/**
 * Whether a token a session obtained was kept for the profile, and if not why — so that whoever
 * reports the result says "not stored" and the reason instead of implying it was (a login under a
 * base URL the profile does not record must not read as a login that will last).
 */
import type { TokenRecord } from '../store/types.js';
import type { ProfileTokens } from './profile-tokens.js';

/**
 * Why a new token was not stored: the session names another service than the profile records
 * (docs/contract.md §2.1: nothing obtained then is kept in the profile), the `none` store keeps
 * nothing, or the caller asked not to store it.
 */
export type NotStoredReason = 'service_override' | 'store_none' | 'not_asked';

export type Kept = { stored: true } | { stored: false; notStored: NotStoredReason };

/** Saves `record` for the profile where it may be kept (ProfileTokens.save) and says what happened. */
export async function keepRecord(
  tokens: ProfileTokens,
  record: TokenRecord,
  options: { save?: boolean; lockHeld?: boolean } = {},
): Promise<Kept> {
  if (options.save === false) return { stored: false, notStored: 'not_asked' };
  if (!tokens.keeps) return { stored: false, notStored: 'service_override' };
  const stored = await tokens.save(record, { lockHeld: options.lockHeld === true });
  return stored ? { stored: true } : { stored: false, notStored: 'store_none' };
}
