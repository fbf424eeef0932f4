/**
 * A hint's command works when pasted: it carries the flags that chose this run's profile (and its
 * `--store` / `--base-url` / `--client-id` where they were given), in backticks, so that pasting
 * it acts on the same profile, not on the active or default one.
 */
import { afterAll, expect, test } from 'vitest';
import { tokencliCommand } from '../../src/cli/output/paste-command.js';
import { runCli } from '../helpers/cli.js';
import { ANY_PORT, demoLoginEnv, startLogin } from '../helpers/cli-login.js';
import { keychainCanBeAway, skippedWithKeychain } from '../helpers/keychain-away.js';
import { serveForFile } from '../helpers/serve.js';
import {
  plantedRecord,
  secondsFromNow,
  writeProfiles,
  writeStoredProfiles,
} from '../helpers/stored-credentials.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { DEMO } from './env.js';

const serve = serveForFile();
afterAll(removeTempDirs);

const soon = secondsFromNow;
const record = (extra: Record<string, unknown> = {}) => plantedRecord(serve.baseUrl, extra);

test('the builder: flags before the command, values quoted for a shell, the command’s own flags win', () => {
  expect(tokencliCommand({}, 'login')).toBe('`tokencli login`');
  expect(tokencliCommand({ profile: 'demo' }, 'login')).toBe('`tokencli --profile demo login`');
  expect(tokencliCommand({ profile: 'my work', store: 'keychain' }, 'configure --store file')).toBe(
    "`tokencli --profile 'my work' configure --store file`",
  );
  expect(tokencliCommand({ baseUrl: 'https://a.example', clientId: 'c' }, 'token', 'par')).toBe(
    '`tokencli --profile par --base-url https://a.example --client-id c token`',
  );
});

test.runIf(keychainCanBeAway)(
  `after the keychain fallback: configure --store file for that profile${skippedWithKeychain}`,
  async () => {
    const configDir = tempDir('tokencli-paste-');
    const r = await runCli(
      [
        '--profile',
        'nokc',
        '--base-url',
        'http://127.0.0.1:9',
        '--client-id',
        'c',
        'configure',
        '--no-secret',
      ],
      { env: { TOKENCLI_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: undefined } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'run `tokencli --profile nokc --base-url http://127.0.0.1:9 --client-id c configure --store file`',
    );
  },
);

test('after `tokencli --profile demo login` times out: the hint logs in to demo again', async () => {
  const configDir = tempDir('tokencli-paste-');
  const env = demoLoginEnv(serve.baseUrl, configDir);
  const r = await startLogin(['--profile', 'demo', ...ANY_PORT, '--timeout-login', '1'], env).done;
  expect(r.code, r.stderr).toBe(6);
  expect(r.stderr).toMatch(/^hint: run `tokencli --profile demo login` again and finish in the browser/m);
});

test('after a refused refresh: run `tokencli --profile p login`', async () => {
  const configDir = tempDir('tokencli-paste-');
  writeProfiles(configDir, { p: { base_url: serve.baseUrl, client_id: DEMO.clientId, store: 'file' } });
  writeStoredProfiles(configDir, {
    p: record({ refresh_token: 'unknown-refresh-token-0123456789', refresh_token_expires_at: soon(86_400) }),
  });
  const r = await runCli(['--profile', 'p', 'refresh'], {
    env: { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_CLIENT_SECRET: DEMO.clientSecret },
  });
  expect(r.code, r.stderr).toBe(3);
  expect(r.stderr).toMatch(
    /^hint: the refresh token is invalid, expired or revoked; run `tokencli --profile p login`$/m,
  );
});

test('status --check names the refused profile in the commands it suggests', async () => {
  const configDir = tempDir('tokencli-paste-');
  const service = { base_url: serve.baseUrl, client_id: DEMO.clientId, store: 'file' };
  writeProfiles(configDir, { demo: service, par: service });
  writeStoredProfiles(configDir, { par: record({ access_token_refused_at: soon(-60) }) });
  // The file store: the active profile, default, records none, and without a choice its run would
  // open the default store, on macOS and Windows the runner's own keychain.
  const env = { TOKENCLI_CONFIG_DIR: configDir, TOKENCLI_STORE: 'file' };
  const r = await runCli(['--profile', 'par', 'status', '--check'], { env });
  expect(r.code, r.stderr).toBe(3);
  expect(r.stderr).toContain(
    '`tokencli --profile par token` renews it (or `tokencli --profile par token --force`), else `tokencli --profile par login`',
  );
  // Listing every profile, the one refused is still named.
  const all = await runCli(['status', '--check'], { env });
  expect(all.stderr).toContain('`tokencli --profile par token` renews it');
});
