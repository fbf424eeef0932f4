/**
 * openStore without a usable keychain: no bus, a bus that never answers, an unreachable socket —
 * the default falls back to the file with exactly one warning within a few seconds and the child
 * process exits (nothing hangs); an explicit keychain is an error (exit 2). Also: `file` and
 * `none` never load the native keyring module (start-up time, docs/contract.md §4). Children run dist/.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { socketPath } from '../helpers/socket-dir.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import { listenOnSocketForTest } from '../helpers/unix-socket-server.js';
import { child, explicitError, fallbackWarning, runSession, sandbox } from './store-child.js';

afterAll(removeTempDirs);

// Elsewhere the keychain is the system's own, which no D-Bus setting takes away, and on Windows
// the children would have no /bin/sh to run in.
describe.skipIf(process.platform !== 'linux')(
  'openStore without a usable keychain (skipped off Linux: there the keychain is not on D-Bus)',
  () => {
    it('gives up on a session bus that accepts connections and never answers (default 3 s)', async () => {
      const { env, configDir } = sandbox();
      const path = socketPath('silent-bus', 'tokencli-bus-');
      await listenOnSocketForTest(path, () => {}); // read nothing, answer nothing
      env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${path},guid=0123456789abcdef0123456789abcdef`;
      const started = Date.now();
      const run = await runSession(
        { body: `${child('open')} & ${child('open', 'keychain')} & wait` },
        env,
        configDir,
      );
      const elapsed = Date.now() - started;
      const reason = 'the D-Bus session bus did not answer within 3s';
      const fallback = run.reports.find((r) => r.kind === 'file');
      const explicit = run.reports.find((r) => r.error);
      expect(fallback, run.stderr).toMatchObject({
        location: join(configDir, 'credentials.json'),
        warnings: [fallbackWarning(reason, configDir)],
        keyringLoaded: false,
      });
      expect(explicit?.error).toEqual(explicitError(reason));
      expect(explicit?.warnings).toEqual([]);
      for (const report of run.reports) expect(report.ms).toBeGreaterThanOrEqual(2_900);
      expect(elapsed).toBeLessThan(15_000); // both children exited: nothing left hanging
      expect(run.code).toBe(0);
    });

    it('falls back at once when there is no session bus at all', async () => {
      const { env, configDir } = sandbox(); // no DBUS_SESSION_BUS_ADDRESS, an empty XDG_RUNTIME_DIR
      const run = await runSession(
        { body: `${child('open')}; ${child('open', 'keychain')}` },
        env,
        configDir,
      );
      const reason = 'no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set';
      expect(run.reports[0], run.stderr).toMatchObject({
        kind: 'file',
        warnings: [fallbackWarning(reason, configDir)],
        keyringLoaded: false,
      });
      expect(run.reports[0]?.ms).toBeLessThan(2_000);
      expect(run.reports[1]?.error).toEqual(explicitError(reason));
    });

    it('falls back when the bus socket does not exist', async () => {
      const { env, configDir } = sandbox();
      const path = socketPath('gone', 'tokencli-bus-');
      rmSync(path, { force: true });
      env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${path}`;
      const run = await runSession({ body: child('open') }, env, configDir);
      expect(run.reports[0], run.stderr).toMatchObject({
        kind: 'file',
        warnings: [fallbackWarning('cannot reach the D-Bus session bus: ENOENT', configDir)],
      });
    });

    it('--store file and --store none: no probe, no warning, the keyring module never loaded', async () => {
      const { env, configDir } = sandbox();
      const run = await runSession(
        { body: `${child('open', 'file')}; ${child('open', 'none')}` },
        env,
        configDir,
      );
      expect(run.reports, run.stderr).toEqual([
        expect.objectContaining({
          kind: 'file',
          location: join(configDir, 'credentials.json'),
          warnings: [],
          keyringLoaded: false,
        }),
        expect.objectContaining({
          kind: 'none',
          location: 'memory (this run only)',
          warnings: [],
          keyringLoaded: false,
        }),
      ]);
    });
  },
);
