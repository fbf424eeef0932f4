/**
 * What `status` says about which profile it shows and where its credentials are: `--profile NAME`
 * selects NAME for this run only, so it is not called "active" while the saved active profile is
 * another; the `store:` header names the run's store only when it is every listed profile's (a
 * profile in the keychain does not read as if it were in the file); a keychain out of reach only
 * because its keyring is locked gets the hint to unlock it (with a real Secret Service, locked:
 * skipped where the tools are missing, except under CI).
 */
import { mkdirSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { partsRequired } from '../helpers/ci-required.js';
import { CLI_SH, runCli } from '../helpers/cli.js';
import { keychainCanBeAway, skippedWithKeychain } from '../helpers/keychain-away.js';
import { writeProfiles } from '../helpers/stored-credentials.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { child, missingSecretServiceTools, runSession, sandbox } from '../store/store-child.js';

afterAll(removeTempDirs);

const BASE_URL = 'http://127.0.0.1:9';
const env = (configDir: string) => ({ TOKENCLI_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: undefined });

function twoProfiles(par: Record<string, unknown> = { store: 'file' }): string {
  const configDir = tempDir('tokencli-status-sel-');
  writeProfiles(configDir, {
    demo: { base_url: BASE_URL, client_id: 'd', store: 'file' },
    par: { base_url: BASE_URL, client_id: 'p', ...par },
  });
  return configDir;
}

test('--profile par, while demo is the active profile: par is selected for this run, not active', async () => {
  const configDir = twoProfiles();
  expect((await runCli(['profile', 'use', 'demo'], { env: env(configDir) })).code).toBe(0);
  const r = await runCli(['--profile', 'par', 'status'], { env: env(configDir) });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^selected profile: par \(--profile, for this run\); active profile: demo$/m);
  expect(r.stdout).toMatch(/^par \(selected for this run\)$/m);
  expect(r.stdout).not.toMatch(/\(active\)|^active profile: par/m);

  // Selecting the active profile itself is just the active one.
  const same = await runCli(['--profile', 'demo', 'status'], { env: env(configDir) });
  expect(same.stdout).toMatch(/^demo \(active\)$/m);
  // Without --profile nothing changes.
  const plain = await runCli(['status'], { env: env(configDir) });
  expect(plain.stdout).toMatch(/^active profile: demo\b/m);
  expect(plain.stdout).toMatch(/^demo \(active\)$/m);
});

test('--json says which profile is selected for this run and which is active', async () => {
  const configDir = twoProfiles();
  expect((await runCli(['profile', 'use', 'demo'], { env: env(configDir) })).code).toBe(0);
  const r = await runCli(['--profile', 'par', 'status', '--json'], { env: env(configDir) });
  expect(r.code, r.stderr).toBe(0);
  const json = JSON.parse(r.stdout);
  expect(json).toMatchObject({ active_profile: 'demo', selected_profile: 'par' });
  expect(json.profiles).toEqual([expect.objectContaining({ profile: 'par', active: false, selected: true })]);

  const plain = JSON.parse((await runCli(['status', '--json'], { env: env(configDir) })).stdout);
  expect(plain).toMatchObject({ active_profile: 'demo', selected_profile: 'demo' });
  expect(plain.profiles).toEqual([
    expect.objectContaining({ profile: 'demo', active: true, selected: true }),
    expect.objectContaining({ profile: 'par', active: false, selected: false }),
  ]);
});

test.runIf(keychainCanBeAway)(
  `the store: header does not claim a keychain profile is in the file${skippedWithKeychain}`,
  async () => {
    const configDir = twoProfiles({ store: 'keychain' });
    const all = await runCli(['status'], { env: env(configDir) });
    expect(all.stdout).not.toMatch(/^store: /m);
    expect(all.stdout).toMatch(/^ {2}store {10}file \(.*credentials\.json\)$/m);
    expect(all.stdout).toMatch(
      /^ {2}store {10}unreachable: the credentials of profile "par" are in the OS keychain/m,
    );

    // Every profile in the run's store: the header says it once.
    const files = twoProfiles();
    const same = await runCli(['status'], { env: env(files) });
    expect(same.stdout).toMatch(/^store: file \(.*credentials\.json\)$/m);
  },
);

const missing = missingSecretServiceTools();
const skip = missing !== undefined && !partsRequired();

describe.skipIf(skip)(`a locked keyring${skip ? ` (skipped: ${missing})` : ''}`, () => {
  test("status's hint says to unlock it", async () => {
    const { env: sessionEnv, configDir } = sandbox();
    mkdirSync(configDir, { recursive: true });
    // The first session creates the login keyring; the second runs the daemon without unlocking it.
    const created = await runSession({ keyring: 'unlocked', body: child('open') }, sessionEnv, configDir);
    expect(created.reports[0], created.stderr).toMatchObject({ kind: 'keychain' });
    writeProfiles(configDir, { work: { base_url: BASE_URL, client_id: 'w', store: 'keychain' } });
    const run = await runSession(
      { keyring: 'locked', body: `${CLI_SH} --profile work status` },
      { ...sessionEnv, TOKENCLI_CONFIG_DIR: configDir },
      configDir,
    );
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/^error: the store of profile "work" cannot be reached here/m);
    expect(run.stderr).toMatch(/^hint: unlock the keyring and try again/m);
  });
});
