/**
 * No refresh token in `--json` output without `--show-tokens` (SPEC.md §2.6, issue 9 item 7):
 * `login --json` and `refresh --json` mask it like the table; `--show-tokens` shows it. In-process
 * against a real token service on loopback, the browser replaced by a form post.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { demoServiceConfig } from '../../src/server/index.js';
import { createTestIO } from '../helpers/test-io.js';
import { DEMO, postLogin, startService } from '../server/helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('refresh tokens in --json', () => {
  it('login --json and refresh --json mask the refresh token unless --show-tokens', async () => {
    const service = await startService(demoServiceConfig());
    const configDir = await mkdtemp(join(tmpdir(), 'tokencli-json-'));
    dirs.push(configDir);
    const run = async (args: string[]) => {
      const io = createTestIO({
        env: {
          TOKENCLI_CONFIG_DIR: configDir,
          TOKENCLI_BASE_URL: service.baseUrl,
          TOKENCLI_CLIENT_ID: DEMO.clientId,
          TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
          TOKENCLI_STORE: 'file',
        },
      });
      const code = await main(args, io, {
        now: () => new Date(service.clock.ms),
        openBrowser: async (url) => {
          const answer = await postLogin(service.baseUrl, Object.fromEntries(new URL(url).searchParams));
          const location = answer.headers.get('location');
          if (!location) throw new Error(`login answered ${answer.status}`);
          await (await fetch(location)).text();
        },
      });
      return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
    };

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
