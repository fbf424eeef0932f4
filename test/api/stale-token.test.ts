/**
 * The library drops a cached access token the service refuses: getTokenInfo
 * rejects with the service's refusal, and the next getToken renews instead of handing the refused
 * token out of the cache again. In-process against a real token service on loopback.
 */
import { describe, expect, it } from 'vitest';
import { getToken, getTokenInfo, ServiceError } from '../../src/index.js';
import { demoServiceConfig } from '../../src/server/index.js';
import { demoClientEnv } from '../helpers/in-process-cli.js';
import { readStoredCredentials, writeStoredTokens } from '../helpers/stored-credentials.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { DEMO, startService } from '../server/helpers.js';

describe('a refused cached access token', () => {
  it('is dropped by getTokenInfo, so getToken renews it (for the stored user, given a password)', async () => {
    const service = await startService(demoServiceConfig());
    const configDir = tempDir('tokencli-stale-');
    const env = demoClientEnv(service.baseUrl, configDir);
    const revoked = 'revoked-access-token-0123456789abcdef';
    writeStoredTokens(configDir, {
      base_url: service.baseUrl,
      client_id: DEMO.clientId,
      access_token: revoked,
      token_type: 'BearerToken',
      expires_at: new Date(Date.now() + 3_000_000).toISOString(),
      grant: 'client_credentials',
      email: DEMO.email,
      obtained_at: new Date(Date.now() - 600_000).toISOString(),
    });
    const credentials = { clientSecret: DEMO.clientSecret, email: DEMO.email, password: DEMO.password };
    expect((await getToken({ env, ...credentials })).accessToken).toBe(revoked);

    await expect(getTokenInfo({ env })).rejects.toBeInstanceOf(ServiceError);
    const stored = readStoredCredentials(configDir);
    expect(Date.parse(String(stored.profiles.default?.tokens?.expires_at))).toBeLessThanOrEqual(Date.now());

    // The password alone: the email is the one the stored token was issued to.
    const renewed = await getToken({ env, clientSecret: DEMO.clientSecret, password: DEMO.password });
    expect(renewed.accessToken).not.toBe(revoked);
    expect(renewed.source).toBe('client_credentials');
  });
});
