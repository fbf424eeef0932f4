/**
 * A cached access token the service refuses (401 `invalid_token`: revoked, or expired early) must
 * not keep being handed out by `tokencli token` from the cache. `info`, `status --check` and the
 * library drop it when they see the refusal — the record stays, with the refresh token, marked
 * expired — so the next `token` renews it (issue 9 item 4).
 */
import type { TokenRecord } from '../store/types.js';
import type { Deps } from './deps.js';

/** Whether an error is the service refusing the access token itself (RFC 6750 §3.1). */
export function refusesAccessToken(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'ServiceError') return false;
  const { status, serviceCode } = error as Error & { status?: number; serviceCode?: string };
  return serviceCode === 'invalid_token' || status === 401;
}

/**
 * Marks the stored record's access token as expired now, if it is still the refused one (another
 * run may have renewed it meanwhile). Returns whether a refresh token remains to renew it with.
 */
export async function dropRefusedAccessToken(deps: Deps, refused: TokenRecord): Promise<boolean> {
  const [settings, store] = await Promise.all([deps.settings(), deps.store()]);
  return deps.withProfileLock(async () => {
    const current = await store.getTokens(settings.profile);
    if (current === undefined || current.access_token !== refused.access_token) return true;
    const now = deps.now();
    const expiresAt = new Date(Math.min(Date.parse(current.expires_at), now.getTime() - 1000));
    await store.setTokens(settings.profile, { ...current, expires_at: expiresAt.toISOString() });
    return current.refresh_token !== undefined;
  });
}

/** The hint after a refused cached token was dropped. */
export function droppedHint(canRenew: boolean): string {
  return canRenew
    ? 'the service refused the cached access token (revoked or expired early); it was dropped, and `tokencli token` now gets a new one with the refresh token'
    : 'the service refused the cached access token (revoked or expired early); it was dropped; run `tokencli login` (or `tokencli token --force` with a password)';
}
