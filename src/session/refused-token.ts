/**
 * A cached access token the service refuses (401 `invalid_token`: revoked, or expired early) must
 * not keep being handed out from the cache: whoever sees the refusal drops it (ProfileTokens.drop)
 * — the record stays, with the refresh token, marked expired — so the next token step renews it.
 */

/** Whether an error is the service refusing the access token itself (RFC 6750 §3.1). */
export function refusesAccessToken(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'ServiceError') return false;
  const { status, serviceCode } = error as Error & { status?: number; serviceCode?: string };
  return serviceCode === 'invalid_token' || status === 401;
}
