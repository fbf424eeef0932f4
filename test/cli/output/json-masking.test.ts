/**
 * No refresh token in `--json` output without `--show-tokens` (docs/contract.md §2.6):
 * `login --json` and `refresh --json` mask it like the table; `--show-tokens` shows it. In-process
 * against a real token service on loopback, the browser replaced by a form post.
 */
import { describe, expect, it } from 'vitest';
import { demoServiceConfig } from '../../../src/server/index.js';
import { inProcessCli } from '../../helpers/in-process-cli.js';
import { tempDir } from '../../helpers/temp-dirs.js';
import { startService } from '../../server/helpers.js';

describe('refresh tokens in --json', () => {
  it('login --json and refresh --json mask the refresh token unless --show-tokens', async () => {
    const service = await startService(demoServiceConfig());
    const run = inProcessCli(service, tempDir('tokencli-json-'));

    const login = await run(['login', '--json', '--redirect-uri', 'http://127.0.0.1:0/callback']);
    expect(login.code, login.stderr).toBe(0);
    const masked = JSON.parse(login.stdout);
    expect(masked.refresh_token).toMatch(/^.{4}….{4}$/);
    expect(masked.access_token.length).toBeGreaterThan(20);

    const shown = JSON.parse((await run(['token', '--json', '--show-tokens'])).stdout);
    expect(shown.refresh_token.length).toBeGreaterThan(20);
    expect(masked.refresh_token).toBe(`${shown.refresh_token.slice(0, 4)}…${shown.refresh_token.slice(-4)}`);

    const refreshed = await run(['refresh', '--json']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).not.toContain(shown.refresh_token);
    expect(JSON.parse(refreshed.stdout).refresh_token).toBe(masked.refresh_token);
    const refreshedShown = await run(['refresh', '--json', '--show-tokens']);
    expect(JSON.parse(refreshedShown.stdout).refresh_token).toBe(shown.refresh_token);
  });
});
