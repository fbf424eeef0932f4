/**
 * The store a profile lives in is remembered, with a REAL Secret Service
 * (gnome-keyring in a private D-Bus session, test/store/store-child.ts): logged in where the
 * keychain is reachable, then run from a session without D-Bus (as over SSH), the CLI says where
 * the credentials are instead of "not logged in" (`status`: unknown, exit 4), and does not fall
 * back to an empty file.
 * Skips (saying why) where the tools are missing, except under CI.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { partsRequired } from '../helpers/ci-required.js';
import { CLI_SH, runCli } from '../helpers/cli.js';
import { serveForFile } from '../helpers/serve.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import { missingSecretServiceTools, runSession, sandbox } from '../store/store-child.js';
import { DEMO } from './env.js';

const missing = missingSecretServiceTools();
const skip = missing !== undefined && !partsRequired();
const title = `a profile in the OS keychain, seen from a session without it${skip ? ` (skipped: ${missing})` : ''}`;

const serve = serveForFile({ skip });
afterAll(async () => {
  removeTempDirs();
});

describe.skipIf(skip)(title, () => {
  it('records the keychain; without D-Bus the error names it and what to do (exit 4), nothing falls back', async () => {
    const { env, configDir } = sandbox();
    const cli = CLI_SH;
    const login = await runSession(
      {
        keyring: 'unlocked',
        body: `${cli} --base-url ${serve.baseUrl} --client-id ${DEMO.clientId} token --email ${DEMO.email} > "$CONFIG_DIR.token" && ${cli} token`,
      },
      {
        ...env,
        TOKENCLI_CONFIG_DIR: configDir,
        TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
        TOKENCLI_PASSWORD: DEMO.password,
      },
      configDir,
    );
    expect(login.code, login.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(config.profiles.default).toEqual({
      base_url: serve.baseUrl,
      client_id: DEMO.clientId,
      store: 'keychain',
    });
    // The second run (only the profile) printed the same cached token.
    expect(login.stdout.trim()).toBe(readFileSync(`${configDir}.token`, 'utf8').trim());

    const away = await runCli(['token'], {
      env: { ...env, TOKENCLI_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: undefined },
    });
    expect(away.code).toBe(4);
    expect(away.stdout).toBe('');
    expect(away.stderr).toMatch(
      /^error: the credentials of profile "default" are in the OS keychain, which cannot be reached here \(/m,
    );
    expect(away.stderr).toMatch(/^hint: .*--store file/m);
    expect(away.stderr).not.toMatch(/not logged in|keeping credentials in/);
    expect(existsSync(join(configDir, 'credentials.json'))).toBe(false);

    const status = await runCli(['status'], {
      env: { ...env, TOKENCLI_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: undefined },
    });
    // What the keychain holds is unknown here: said so, not "none stored", and not a success.
    expect(status.code).toBe(4);
    expect(status.stdout).toMatch(
      /store\s+unreachable: the credentials of profile "default" are in the OS keychain/,
    );
    expect(status.stdout).toMatch(/access token\s+unknown \(store unreachable\)/);
    expect(status.stdout).toMatch(/client secret\s+unknown \(store unreachable\)/);
    expect(status.stderr).toMatch(/^error: the store of profile "default" cannot be reached here/m);
    const check = await runCli(['status', '--check'], {
      env: { ...env, TOKENCLI_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: undefined },
    });
    expect(check.code).toBe(4);
    expect(check.stdout).toMatch(/check\s+store unreachable/);

    // Back where the keychain is: `profile remove` takes the entries out of it too.
    const removed = await runSession(
      {
        keyring: 'unlocked',
        body: `${cli} profile remove default --yes && ${cli} --base-url ${serve.baseUrl} --client-id ${DEMO.clientId} --store keychain token; echo "exit=$?"`,
      },
      { ...env, TOKENCLI_CONFIG_DIR: configDir },
      configDir,
    );
    expect(removed.stderr).toMatch(
      /Removed profile "default" \(settings, and credentials from the keychain store\)/,
    );
    expect(removed.stdout).toMatch(/exit=4/);
    expect(removed.stderr).toMatch(/error: not logged in \(profile "default"\)/);
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default).toBeUndefined();
  });
});
