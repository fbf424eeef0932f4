/** Exchanges the profile's stored refresh token now (refresh_token grant), under its lock. */
import { NotLoggedInError } from '../errors.js';
import { GrantType } from '../protocol/grants.js';
import type { TokenRecord } from '../store/types.js';
import { type Kept, keepRecord } from './kept.js';
import { toRecord } from './record-from-tokens.js';
import type { SecretSource } from './secret-source.js';
import type { Session } from './session.js';

export async function refreshNow(
  session: Session,
  options: { endOtherSessions: boolean },
  secrets: SecretSource,
): Promise<{ record: TokenRecord } & Kept> {
  const tokens = await session.tokens();
  const { requestToken } = await import('../oauth/token-request.js');
  return tokens.withLock(async () => {
    const stored = await tokens.get();
    if (!stored?.refresh_token) {
      throw new NotLoggedInError(
        `no refresh token stored for profile "${tokens.profile}"`,
        undefined,
        'no_refresh_token',
        { profile: tokens.profile },
      );
    }
    const expiresAt = stored.refresh_token_expires_at;
    if (expiresAt !== undefined && Date.parse(expiresAt) <= session.time()) {
      throw new NotLoggedInError(
        `the refresh token of profile "${tokens.profile}" expired at ${expiresAt}`,
        undefined,
        'refresh_token_expired',
        { profile: tokens.profile },
      );
    }
    const response = await requestToken(
      await session.client(await session.clientSecret(secrets)),
      { grant_type: GrantType.refreshToken, refresh_token: stored.refresh_token },
      { endOtherSessions: options.endOtherSessions, signal: session.signal },
    );
    const fresh = toRecord(response, {
      ...tokens.service,
      grant: 'refresh_token',
      now: session.now(),
      previous: stored,
    });
    return { record: fresh, ...(await keepRecord(tokens, fresh, { lockHeld: true })) };
  });
}
