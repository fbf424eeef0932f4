/**
 * test/store/fixtures/session-bus.sh, the private D-Bus session that the keychain tests, the
 * release binary test and the keychain bench run in: its bus listens in the caller's directory,
 * not in /tmp, and a hang-up (a closed terminal) leaves no dbus-daemon behind. Needs dbus like
 * the keychain tests, and skips, or fails under CI, the same way.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { partsRequired } from '../helpers/ci-required.js';
import { type CliResult, collectOutput } from '../helpers/cli.js';
import { socketDir } from '../helpers/socket-dir.js';
import { until } from '../helpers/until.js';
import { missingSecretServiceTools, SESSION_BUS } from './store-child.js';

const missing = missingSecretServiceTools();
const skip = missing !== undefined && !partsRequired();
const title = `session-bus.sh${skip ? ` (skipped: ${missing})` : ''}`;

/** session-bus.sh running `script` in /bin/sh, in a process group of its own. */
function session(script: string, runtime: string): ChildProcessByStdio<null, Readable, Readable> {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  return spawn('/bin/sh', [SESSION_BUS, '/bin/sh', '-c', script], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Shell commands that wait for the bus to answer. Stopped before, while it is still starting,
 * dbus-daemon dies of the signal without removing its socket, which is no fault of the script's.
 */
const BUS_ANSWERS =
  'dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null';

/** Whether any process is left in process group `group`. */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits up to 5 s for process group `group` to empty, and fails if it does not. dbus-run-session
 * exits once it has sent its bus SIGTERM, without waiting for it: the bus may still be removing
 * its socket.
 */
const groupEnded = (group: number, what: string) => until(what, () => !groupAlive(group), 5_000);

/**
 * The session's output once it has ended. One still running after 15 s is killed, its whole
 * group: whatever outlives its end keeps the output open, and a failing test must leave nothing
 * running.
 */
function sessionEnd(proc: ChildProcessByStdio<null, Readable, Readable>): Promise<CliResult> {
  const group = proc.pid as number;
  const stuck = setTimeout(() => {
    if (groupAlive(group)) process.kill(-group, 'SIGKILL');
  }, 15_000);
  return collectOutput(proc).finally(() => clearTimeout(stuck));
}

describe.skipIf(skip)(title, () => {
  beforeAll(() => {
    if (missing) throw new Error(`CI must provide the Secret Service: ${missing}`);
  });

  it('runs its command on a bus listening at $XDG_RUNTIME_DIR/bus, removed when the session ends', async () => {
    const runtime = socketDir('tokencli-run-');
    const proc = session(`${BUS_ANSWERS} && echo "$DBUS_SESSION_BUS_ADDRESS"`, runtime);
    const run = await sessionEnd(proc);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.startsWith(`unix:path=${join(runtime, 'bus')},guid=`), run.stdout).toBe(true);
    await groupEnded(proc.pid as number, 'the bus to exit');
    expect(existsSync(join(runtime, 'bus'))).toBe(false);
  });

  it('a hang-up stops its command, then its bus: nothing is left running', async () => {
    const runtime = socketDir('tokencli-run-');
    const proc = session(`${BUS_ANSWERS} && echo ready; sleep 60`, runtime);
    const group = proc.pid as number;
    try {
      const ready = new Promise<void>((resolveReady) => {
        proc.stdout.once('data', () => resolveReady());
      });
      const ended = sessionEnd(proc);
      const started = await Promise.race([ready.then(() => true), ended.then(() => false)]);
      expect(started, started ? '' : (await ended).stderr).toBe(true);
      process.kill(-group, 'SIGHUP');
      const run = await ended;
      // dbus-run-session, which ignored the hang-up, reports its command's death by it.
      expect(run.code, run.stderr).toBe(129);
      await groupEnded(group, 'every process of the session to exit');
      expect(existsSync(join(runtime, 'bus'))).toBe(false);
    } finally {
      if (groupAlive(group)) process.kill(-group, 'SIGKILL');
    }
  });

  it('without XDG_RUNTIME_DIR it says what to set, exit 2, and runs nothing', async () => {
    const run = await collectOutput(session('echo ran', ''));
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'session-bus.sh: set XDG_RUNTIME_DIR to a directory of its own for the bus socket\n',
    });
  });
});
