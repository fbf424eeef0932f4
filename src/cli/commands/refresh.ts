/** `tokencli refresh`: exchanges the stored refresh token now (refresh_token grant). */
import { NotLoggedInError } from '../../errors.js';
import { GrantType } from '../../oauth/types.js';
import type { Deps } from '../deps.js';
import { expirySummary, note, printTokenJson } from '../token-output.js';
import { recordMatches, toRecord } from '../token-record.js';

export interface RefreshOptions {
  clientSecretStdin?: boolean;
  endOtherSessions?: boolean;
  json?: boolean;
  /** Refresh tokens unmasked in the JSON (SPEC.md §2.6). */
  showTokens?: boolean;
}

export async function run(options: RefreshOptions, deps: Deps): Promise<void> {
  const settings = await deps.settings();
  const service = await deps.service();
  const store = await deps.store();
  const { requestToken } = await import('../../oauth/token-request.js');

  const record = await deps.withProfileLock(async () => {
    const stored = await store.getTokens(settings.profile);
    if (!recordMatches(stored, service.baseUrl, service.clientId) || !stored.refresh_token) {
      throw new NotLoggedInError(
        `no refresh token stored for profile "${settings.profile}"`,
        'run `tokencli login` (only the browser login yields a refresh token)',
      );
    }
    const expiresAt = stored.refresh_token_expires_at;
    if (expiresAt !== undefined && Date.parse(expiresAt) <= deps.now().getTime()) {
      throw new NotLoggedInError(
        `the refresh token of profile "${settings.profile}" expired at ${expiresAt}`,
        'run `tokencli login` again',
      );
    }
    const clientSecret = await deps.clientSecret(options.clientSecretStdin === true);
    const tokens = await requestToken(
      await deps.client(clientSecret),
      { grant_type: GrantType.refreshToken, refresh_token: stored.refresh_token },
      { endOtherSessions: options.endOtherSessions === true, signal: deps.signal },
    );
    const fresh = toRecord(tokens, {
      ...service,
      grant: 'refresh_token',
      now: deps.now(),
      previous: stored,
    });
    await store.setTokens(settings.profile, fresh);
    return fresh;
  });

  if (options.json) printTokenJson(deps, record, settings.profile, 'refresh_token', options.showTokens);
  note(deps, `Refreshed profile "${settings.profile}". ${expirySummary(record)}`);
}
