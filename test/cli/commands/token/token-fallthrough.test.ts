/**
 * `tokencli token`'s fall-through order (docs/contract.md §2.3), in-process against a real token service
 * on loopback: cache → refresh → client credentials → "not logged in". The clock of the service
 * and of the CLI is the same fake one, so expiry is reached without waiting.
 */
import { describe, expect, it } from 'vitest';
import { demoServiceConfig } from '../../../../src/server/index.js';
import { openStore } from '../../../../src/store/open-store.js';
import { inProcessCli } from '../../../helpers/in-process-cli.js';
import { tempDir } from '../../../helpers/temp-dirs.js';
import { DEMO, startService, type TestService } from '../../../server/helpers.js';

interface Setup {
  service: TestService;
  requests: string[];
  configDir: string;
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }>;
}

async function setup(): Promise<Setup> {
  const requests: string[] = [];
  const service = await startService(demoServiceConfig(), { log: (line) => requests.push(line) });
  const configDir = tempDir('tokencli-fallthrough-');
  const run = inProcessCli(service, configDir);
  return { service, requests, configDir, run };
}

const tokenRequests = (requests: string[]) =>
  requests.filter((line) => line.includes('/v2/oauth/token')).length;

describe('tokencli token falls through cache → refresh → client credentials → not logged in', () => {
  it('says "not logged in" (exit 4) with nothing stored and no user credentials', async () => {
    const { run, requests } = await setup();
    const result = await run(['token']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: not logged in (profile "default")');
    expect(result.stderr).toContain('hint: run `tokencli login`');
    expect(requests).toEqual([]);
  });

  it('uses the cache, then the refresh token once the access token is stale', async () => {
    const { run, requests, service } = await setup();
    const login = await run(['login', '--redirect-uri', 'http://127.0.0.1:0/callback']);
    expect(login.stderr).toContain('Logged in as demo@example.com');
    expect(login.code).toBe(0);
    const afterLogin = tokenRequests(requests);
    expect(afterLogin).toBe(1);

    const cached = await run(['token', '--json']);
    expect(cached.code).toBe(0);
    expect(JSON.parse(cached.stdout)).toMatchObject({ source: 'cache', email: DEMO.email });
    expect(tokenRequests(requests)).toBe(afterLogin);

    // 59 minutes on, the 60-minute token has less than the default --min-ttl of 60 s left... not yet.
    service.clock.advance(3600 - 120);
    expect(JSON.parse((await run(['token', '--json'])).stdout).source).toBe('cache');
    // …and now it has: the stored refresh token is exchanged.
    service.clock.advance(90);
    const refreshed = await run(['token', '--json']);
    expect(refreshed.code).toBe(0);
    const body = JSON.parse(refreshed.stdout);
    expect(body.source).toBe('refresh_token');
    expect(body.access_token).not.toBe(JSON.parse(cached.stdout).access_token);
    expect(tokenRequests(requests)).toBe(afterLogin + 1);
  });

  it('falls through a refused refresh token to client credentials, or reports the refusal', async () => {
    const { run, requests, configDir } = await setup();
    expect((await run(['login', '--redirect-uri', 'http://127.0.0.1:0/callback'])).code).toBe(0);
    // The service no longer knows the stored refresh token (as after a revocation).
    const store = await openStore({ kind: 'file', configDir, warn: () => {} });
    const stored = await store.getTokens('default');
    if (!stored) throw new Error('login stored nothing');
    await store.setTokens('default', { ...stored, refresh_token: 'revoked-refresh-token' });

    const refused = await run(['token', '--force']);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');

    const fallen = await run(['token', '--force', '--json'], {
      TOKENCLI_EMAIL: DEMO.email,
      TOKENCLI_PASSWORD: DEMO.password,
    });
    expect(fallen.code).toBe(0);
    expect(JSON.parse(fallen.stdout)).toMatchObject({ source: 'client_credentials', email: DEMO.email });
    expect(tokenRequests(requests)).toBe(4);
  });

  it('uses client credentials directly when nothing is stored', async () => {
    const { run } = await setup();
    const result = await run(['token', '--json'], {
      TOKENCLI_EMAIL: DEMO.email,
      TOKENCLI_PASSWORD: DEMO.password,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).source).toBe('client_credentials');
    expect(JSON.parse((await run(['token', '--json'])).stdout).source).toBe('cache');
  });
});
