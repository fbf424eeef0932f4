/**
 * The library drops a cached access token the service refuses (issue 9 item 4): getTokenInfo
 * rejects with the service's refusal, and the next getToken renews instead of handing the refused
 * token out of the cache again. In-process against a real token service on loopback.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getToken, getTokenInfo, ServiceError } from '../../src/index.js';
import { demoServiceConfig } from '../../src/server/index.js';
import { DEMO, startService } from '../server/helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('a refused cached access token', () => {
  it('is dropped by getTokenInfo, so getToken renews it', async () => {
    const service = await startService(demoServiceConfig());
    const configDir = await mkdtemp(join(tmpdir(), 'tokencli-stale-'));
    dirs.push(configDir);
    const env = {
      TOKENCLI_CONFIG_DIR: configDir,
      TOKENCLI_BASE_URL: service.baseUrl,
      TOKENCLI_CLIENT_ID: DEMO.clientId,
      TOKENCLI_STORE: 'file',
    };
    const revoked = 'revoked-access-token-0123456789abcdef';
    await writeFile(
      join(configDir, 'credentials.json'),
      JSON.stringify({
        version: 1,
        profiles: {
          default: {
            tokens: {
              base_url: service.baseUrl,
              client_id: DEMO.clientId,
              access_token: revoked,
              token_type: 'BearerToken',
              expires_at: new Date(Date.now() + 3_000_000).toISOString(),
              grant: 'client_credentials',
              obtained_at: new Date(Date.now() - 600_000).toISOString(),
            },
          },
        },
      }),
      { mode: 0o600 },
    );
    const credentials = { clientSecret: DEMO.clientSecret, email: DEMO.email, password: DEMO.password };
    expect((await getToken({ env, ...credentials })).accessToken).toBe(revoked);

    await expect(getTokenInfo({ env })).rejects.toBeInstanceOf(ServiceError);
    const stored = JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8'));
    expect(Date.parse(stored.profiles.default.tokens.expires_at)).toBeLessThanOrEqual(Date.now());

    const renewed = await getToken({ env, ...credentials });
    expect(renewed.accessToken).not.toBe(revoked);
    expect(renewed.source).toBe('client_credentials');
  });
});
