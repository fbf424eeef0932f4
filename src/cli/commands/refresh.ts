/** `tokencli refresh`: exchanges the stored refresh token now (refresh_token grant). */
import { NotLoggedInError } from '../../errors.js';
import { GrantType } from '../../oauth/types.js';
import type { CommandContext } from '../context.js';
import { tokenLockPath } from '../obtain-token.js';
import { openCredentialStore, resolveClientSecret, serviceClient } from '../service.js';
import { requireService, resolveSettings } from '../settings.js';
import { expirySummary, note, printTokenJson } from '../token-output.js';
import { recordMatches, toRecord } from '../token-record.js';

export interface RefreshOptions {
  clientSecretStdin?: boolean;
  endOtherSessions?: boolean;
  json?: boolean;
}

export async function run(options: RefreshOptions, ctx: CommandContext): Promise<void> {
  const settings = await resolveSettings(ctx);
  const service = requireService(settings);
  const store = await openCredentialStore(settings, ctx);
  const { withFileLock } = await import('../../fs/lock.js');
  const { requestToken } = await import('../../oauth/token-request.js');

  const record = await withFileLock(
    tokenLockPath(settings),
    async () => {
      const stored = await store.getTokens(settings.profile);
      if (!recordMatches(stored, service.baseUrl, service.clientId) || !stored.refresh_token) {
        throw new NotLoggedInError(
          `no refresh token stored for profile "${settings.profile}"`,
          'run `tokencli login` (only the browser login yields a refresh token)',
        );
      }
      const expiresAt = stored.refresh_token_expires_at;
      if (expiresAt !== undefined && Date.parse(expiresAt) <= Date.now()) {
        throw new NotLoggedInError(
          `the refresh token of profile "${settings.profile}" expired at ${expiresAt}`,
          'run `tokencli login` again',
        );
      }
      const clientSecret = await resolveClientSecret(
        ctx,
        store,
        settings.profile,
        options.clientSecretStdin === true,
      );
      const tokens = await requestToken(
        serviceClient(settings, ctx, service, clientSecret),
        { grant_type: GrantType.refreshToken, refresh_token: stored.refresh_token },
        { endOtherSessions: options.endOtherSessions === true, signal: ctx.signal },
      );
      const fresh = toRecord(tokens, {
        ...service,
        grant: 'refresh_token',
        now: new Date(),
        previous: stored,
      });
      await store.setTokens(settings.profile, fresh);
      return fresh;
    },
    { timeoutMs: settings.timeoutMs * 3 + 10_000, signal: ctx.signal },
  );

  if (options.json) printTokenJson(ctx, record, settings.profile, 'refresh_token');
  note(ctx, `Refreshed profile "${settings.profile}". ${expirySummary(record)}`);
}
