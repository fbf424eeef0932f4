/**
 * The keychain backend against a REAL Secret Service: gnome-keyring in a private D-Bus session
 * (fixtures/session-bus.sh), in a throw-away HOME. Children run the built dist/ (store-child.ts).
 * Where the tools are missing these tests skip and say why, except under CI (which installs them
 * in .ci/run), where they fail.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipeHandleBindings } from '../../src/store/pipe-handle-socket.js';
import { partsRequired } from '../helpers/ci-required.js';
import { socketDir } from '../helpers/socket-dir.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import {
  type ChildReport,
  child,
  explicitError,
  fallbackWarning,
  missingSecretServiceTools,
  runSession,
  sandbox,
} from './store-child.js';

const missing = missingSecretServiceTools();
const secretTool = missingSecretServiceTools(['secret-tool']) === undefined || partsRequired();
const ENTRIES_CHILD = resolve(import.meta.dirname, 'fixtures/entries-child.mjs');
/** What an `open` report says about the store it got. */
const pick = (report: ChildReport | undefined) => ({
  kind: report?.kind,
  location: report?.location,
  warnings: report?.warnings,
});
const skip = missing !== undefined && !partsRequired();
const title = `keychain store on a real Secret Service${skip ? ` (skipped: ${missing})` : ''}`;
if (skip) console.warn(`skipping the keychain tests on a real Secret Service: ${missing}`);

afterAll(removeTempDirs);

describe.skipIf(skip)(title, () => {
  beforeAll(() => {
    if (missing) throw new Error(`CI must provide the Secret Service: ${missing}`);
  });

  // The same rules over either client's entries: the JavaScript D-Bus client, what Linux uses, and
  // @napi-rs/keyring's, what macOS and Windows use (here speaking to the same Secret Service).
  it.each([
    ['the JavaScript D-Bus client', 'secret-service', false],
    ['@napi-rs/keyring', 'native', true],
  ])(
    'stores tokens and secrets over %s: kept across processes, damage set aside, gone at logout',
    async (_, entries, native) => {
      const { env, configDir } = sandbox();
      const body = `${child('write')} && ${child('read')}`;
      const run = await runSession(
        { keyring: 'unlocked', body },
        { ...env, STORE_ENTRIES: entries },
        configDir,
      );
      expect(run.reports, run.stderr).toHaveLength(2);
      const [write, read] = run.reports;
      const base = {
        base_url: 'http://127.0.0.1:8080',
        client_id: 'demo-client',
        token_type: 'BearerToken',
        expires_at: '2030-01-01T01:00:00.000Z',
        grant: 'client_credentials',
        obtained_at: '2030-01-01T00:00:00.000Z',
      };
      expect(write?.error).toBeUndefined();
      expect(write).toMatchObject({
        kind: 'keychain',
        location: 'OS keychain (Secret Service)',
        warnings: [],
        ci: { ...base, access_token: 'second-ci-token' },
        listed: ['ci', 'work'],
        ciAfterDelete: null,
        // Native code only where the native module's entries were asked for.
        keyringLoaded: native,
      });

      expect(read?.error).toBeUndefined();
      expect(read).toMatchObject({
        kind: 'keychain',
        work: { ...base, access_token: 'keychain-access-token', email: 'work@example.com' },
        workSecret: 'work-client-secret',
        listed: ['work'],
        keyringLoadedByStore: native,
        broken: null,
        afterLogout: { work: null, secret: null, listed: [] },
      });
      const accounts = read?.accounts as { account: string; password: string }[];
      const backup = accounts.find((c) => c.account.startsWith('broken/tokens.corrupt-'));
      expect(backup?.password).toBe('{"access_token":');
      expect(accounts.map((c) => c.account)).not.toContain('broken/tokens');
      expect(read?.warnings).toEqual([
        `warning: the stored tokens of profile "broken" in the OS keychain (Secret Service) were damaged (it is not valid JSON); kept them as "${backup?.account}" and treated the profile as logged out`,
      ]);
      // The file store was not touched.
      expect(write?.location).not.toContain(configDir);
    },
  );

  it('falls back to the file on a locked keyring (one warning), and refuses it when asked explicitly', async () => {
    const { env, configDir } = sandbox();
    // The first session creates the login keyring on disk; the second runs the daemon without unlocking it.
    const created = await runSession({ keyring: 'unlocked', body: child('open') }, env, configDir);
    expect(created.reports[0], created.stderr).toMatchObject({ kind: 'keychain', warnings: [] });
    const run = await runSession(
      {
        keyring: 'locked',
        body: `${child('open')}; ${child('open', 'keychain')}; ${child('fast-open')}; ${child('fast-open', 'keychain')}`,
      },
      env,
      configDir,
    );
    const [fallback, explicit, fastFallback, fastExplicit] = run.reports;
    expect(fallback, run.stderr).toMatchObject({
      kind: 'file',
      location: join(configDir, 'credentials.json'),
      warnings: [fallbackWarning('the default keyring is locked', configDir)],
    });
    // Asked for explicitly, a locked keyring's hint is first of all to unlock it.
    const locked = explicitError('the default keyring is locked');
    expect(explicit?.error).toEqual({
      ...locked,
      hint: expect.stringMatching(/^unlock the keyring and try again .*, or use --store file/),
    });
    expect(explicit?.warnings).toEqual([]);
    // The fast path's store decides the same; no native module is loaded either way.
    expect(fallback).toMatchObject({ keyringLoaded: false });
    expect(fastFallback).toMatchObject({ ...pick(fallback), keyringLoaded: false });
    expect(fastExplicit).toMatchObject({ error: explicit?.error, warnings: [], keyringLoaded: false });
  });

  it('the fast path reads a record with the lookup it sent beside the probe, as any store reads it', async () => {
    const { env, configDir } = sandbox();
    const body = `${child('write')} && ${child('fast-read')} && ${child('read')}`;
    const run = await runSession({ keyring: 'unlocked', body }, env, configDir);
    expect(run.reports, run.stderr).toHaveLength(3);
    const [, fast, read] = run.reports;
    expect(read?.work).toMatchObject({ access_token: 'keychain-access-token' });
    expect(fast).toMatchObject({
      kind: 'keychain',
      location: 'OS keychain (Secret Service)',
      work: read?.work,
      keyringLoadedAfterRead: false,
      stderrMadeByRead: false,
      // Later reads search anew, over the same connection.
      secondRead: read?.work,
      absent: null,
      keyringLoaded: false,
      warnings: [],
    });
  });

  it.skipIf(!secretTool)(
    'what @napi-rs/keyring wrote the JavaScript entries read, and the other way round; both refuse the same',
    async () => {
      const { env, configDir } = sandbox();
      // Planted behind tokencli's back: two items matching one entry, and a secret that is not UTF-8.
      const plant = (label: string, bytes: string, account: string, ...more: string[]) =>
        `printf '${bytes}' | secret-tool store --label=${label} service tokencli username ${account} ${more.join(' ')}`;
      const body = [
        plant('one', 'a', 'dup/tokens', 'copy', '1'),
        plant('two', 'b', 'dup/tokens', 'copy', '2'),
        plant('bin', '\\377\\376', 'binary/tokens'),
        // An entry in another keyring than the default: a write gives it its new secret there.
        `printf old | secret-tool store --collection=session --label=moved service tokencli username moved/tokens`,
        `"$NODE" "${ENTRIES_CHILD}" "$DIST_URL"`,
      ].join(' && ');
      const run = await runSession({ keyring: 'unlocked', body }, env, configDir);
      const [report] = run.reports;
      expect(report, run.stderr).toBeDefined();
      expect(report?.nativeToJs).toEqual(Array(4).fill('same'));
      expect(report?.jsToNative).toEqual(Array(4).fill('same'));
      // Read over node's pipe handle and over node:net alike, where this node allows the handle.
      expect(report?.socketKinds).toEqual(pipeHandleBindings() ? ['pipe-handle', 'net'] : ['net']);
      const written = ['js0', 'js1', 'js2', 'js3', 'native0', 'native1', 'native2', 'native3'];
      const listed = [
        ...written.map((name) => `${name}/tokens`),
        'binary/tokens',
        'dup/tokens',
        'dup/tokens',
        'moved/tokens',
      ].sort();
      expect(report?.jsAccounts).toEqual(listed); // each written once, though the JavaScript wrote twice
      expect(report?.nativeAccounts).toEqual(listed);
      expect(report?.moved).toEqual({ js: { value: 'new' }, native: 'new', items: 1 });
      expect(report?.afterRemoval).toEqual({
        nativeReadsJsRemoved: null,
        jsReadsNativeRemoved: { value: null },
      });
      expect(report?.['absent/tokens']).toEqual({ native: { value: null }, js: { value: null } });
      expect(report?.['dup/tokens']).toMatchObject({
        native: { error: expect.any(String) },
        js: { error: '2 entries match "dup/tokens"' },
      });
      expect(report?.['binary/tokens']).toMatchObject({
        native: { error: expect.any(String) },
        js: { error: 'the entry "binary/tokens" is not UTF-8 text' },
      });
    },
  );

  it('a keyring locked after the store opened: no unlock prompt is shown, and the next call says it is locked', async () => {
    const { env, configDir } = sandbox();
    const run = await runSession(
      { keyring: 'unlocked', body: child('locked-later', 'keychain') },
      env,
      configDir,
    );
    expect(run.reports[0], run.stderr).toMatchObject({
      kind: 'keychain',
      // gnome-keyring asks for its unlock prompt, which tokencli dismisses rather than show.
      read: 'the OS keychain (Secret Service) failed (read): the keyring that holds the entry is locked',
      write: 'the OS keychain (Secret Service) failed (write): the default keyring is locked',
      keyringLoaded: false,
    });
  });

  it('falls back when the Secret Service has no default keyring yet', async () => {
    const { env, configDir } = sandbox();
    const run = await runSession({ keyring: 'locked', body: child('open') }, env, configDir);
    expect(run.reports[0], run.stderr).toMatchObject({
      kind: 'file',
      warnings: [fallbackWarning('the Secret Service has no default keyring', configDir)],
      keyringLoaded: false,
    });
  });

  it('falls back when the session bus has no Secret Service at all', async () => {
    const { env, configDir, home } = sandbox();
    // A session bus without service directories: nothing can be activated as org.freedesktop.secrets.
    const busConfig = join(home, 'bus.conf');
    writeFileSync(
      busConfig,
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=${socketDir('tokencli-bus-')}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`,
    );
    const run = await runSession(
      { keyring: 'none', busConfig, body: `${child('open')}; ${child('open', 'keychain')}` },
      env,
      configDir,
    );
    const reason = 'no Secret Service on the session bus (org.freedesktop.DBus.Error.ServiceUnknown)';
    expect(run.reports[0], run.stderr).toMatchObject({
      kind: 'file',
      warnings: [fallbackWarning(reason, configDir)],
    });
    expect(run.reports[1]?.error).toEqual(explicitError(reason));
  });
});
