/**
 * Runs fixtures/store-child.mjs (against the BUILT dist/, see ../helpers/dist-module.ts) directly or
 * inside a private D-Bus session with gnome-keyring, in a throw-away HOME so that no test ever
 * touches the developer's real keyring.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { collectOutput } from '../helpers/cli.js';
import { distModule } from '../helpers/dist-module.js';
import { socketDir } from '../helpers/socket-dir.js';
import { tempDir } from '../helpers/temp-dirs.js';

export const CHILD = resolve(import.meta.dirname, 'fixtures/store-child.mjs');
const SESSION_SCRIPT = resolve(import.meta.dirname, 'fixtures/keyring-session.sh');
/** The private D-Bus session every keychain session runs in (fixtures/session-bus.sh). */
export const SESSION_BUS = resolve(import.meta.dirname, 'fixtures/session-bus.sh');

export interface ChildReport {
  kind?: string;
  location?: string;
  error?: { message: string; hint?: string; exitCode: number };
  warnings: string[];
  ms: number;
  keyringLoaded: boolean;
  [key: string]: unknown;
}

/** Why the real Secret Service cannot run here, or undefined when it can. */
export function missingSecretServiceTools(more: string[] = []): string | undefined {
  const tools = ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon', ...more];
  const missing = tools.filter((tool) => !onPath(tool));
  if (missing.length === 0) return undefined;
  return `${missing.join(' and ')} not installed (apt-get install dbus gnome-keyring libsecret-tools; .ci/run installs them)`;
}

function onPath(tool: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A fresh HOME with XDG dirs, and the config dir the child uses (remove with removeTempDirs). */
export function sandbox(): { home: string; configDir: string; env: NodeJS.ProcessEnv } {
  const home = tempDir('tokencli-keyring-');
  // The session bus's socket (bus) and gnome-keyring's (keyring/control) go in it: a directory
  // whose socket paths fit.
  const runtime = socketDir('tokencli-run-');
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(TOKENCLI_|DBUS_|XDG_|GNOME_KEYRING)/.test(key)) env[key] = value;
  }
  Object.assign(env, {
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_RUNTIME_DIR: runtime,
  });
  return { home, configDir: join(home, 'tokencli'), env };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  reports: ChildReport[];
}

/** A shell command running the child with its arguments, for `body` below. */
export function child(...args: string[]): string {
  return `"$NODE" "$CHILD_SCRIPT" "$DIST_URL" "$CONFIG_DIR" ${args.join(' ')}`;
}

export interface SessionOptions {
  /** What gnome-keyring runs in the session; undefined = no D-Bus session at all, just /bin/sh. */
  keyring?: 'unlocked' | 'locked' | 'none';
  /** A dbus-daemon configuration file for the session instead of the default session bus. */
  busConfig?: string;
  /** Shell commands to run (build them with child()). */
  body: string;
  timeoutMs?: number;
}

/** Runs `body` with /bin/sh, inside a private D-Bus session with gnome-keyring when asked. */
export async function runSession(
  options: SessionOptions,
  env: NodeJS.ProcessEnv,
  configDir: string,
): Promise<Run> {
  const distUrl = new URL('..', distModule('store/open-store.js')).href;
  const command: [string, string[]] =
    options.keyring === undefined
      ? ['/bin/sh', ['-c', options.body]]
      : ['/bin/sh', [SESSION_BUS, '/bin/sh', SESSION_SCRIPT, options.keyring]];
  const childEnv = {
    ...env,
    NODE: process.execPath,
    CHILD_SCRIPT: CHILD,
    DIST_URL: distUrl,
    CONFIG_DIR: configDir,
    BODY: options.body,
    ...(options.busConfig ? { BUS_CONFIG: options.busConfig } : {}),
  };
  const runOnce = async (): Promise<Run> => {
    const proc = spawn(command[0], command[1], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const { code, stdout, stderr } = await collectOutput(proc, options.timeoutMs ?? 60_000);
    const reports = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as ChildReport);
    return { code, stdout, stderr, reports };
  };
  const run = await runOnce();
  // The session's gnome-keyring-daemon, once it owned its name (keyring-session.sh waits for
  // that), has twice been gone under a loaded CI run when a child first asked for it: the bus then
  // starts another on demand, with no keyring unlocked, and the run fails for no fault of
  // tokencli's (a write refused, a default alias of "/"). The bus says so in its log; such a
  // session is run once more, and the daemon's last words are shown.
  if (
    options.keyring !== undefined &&
    options.keyring !== 'none' &&
    DAEMON_STARTED_ON_DEMAND.test(run.stderr)
  ) {
    const log = join(env.HOME ?? '', 'gnome-keyring.log');
    console.warn(
      `note: the session's gnome-keyring-daemon was gone and the bus started another; running the session again. Its log:\n${existsSync(log) ? readFileSync(log, 'utf8') : '(none)'}`,
    );
    return runOnce();
  }
  return run;
}

/** The session bus's log line for a Secret Service it started on demand. */
const DAEMON_STARTED_ON_DEMAND = /Activating service name='org\.freedesktop\.secrets'/;

/** The one line the default store prints when it falls back to the file. */
export const fallbackWarning = (reason: string, configDir: string) =>
  `warning: OS keychain unavailable (${reason}); keeping credentials in ${join(configDir, 'credentials.json')}`;

/** The error an explicit `--store keychain` gets when the keychain cannot be used. */
export const explicitError = (reason: string) => ({
  exitCode: 2,
  message: `the OS keychain cannot be used: ${reason}`,
  hint: 'use --store file to keep credentials in a private file (or --store none for this run only)',
});
