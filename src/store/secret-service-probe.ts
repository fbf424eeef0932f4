/**
 * Asks the Secret Service (Linux and BSD keychains) whether it can serve us, in plain JavaScript
 * over the D-Bus socket, and keeps the connection for the keychain's entries
 * (secret-service-entries.ts).
 *
 * Why not the native module there: on Linux `@napi-rs/keyring` connects to D-Bus synchronously
 * when an entry is constructed, so a bus that accepts connections and never answers blocks the
 * event loop for good. A worker thread does not help either: a thread stuck in native code cannot
 * be terminated, and Node then never exits. A socket we own can be destroyed after a few seconds
 * (docs/contract.md §2.7: a hanging keychain call is given up).
 *
 * The probe checks what would otherwise hang or prompt: the bus answers, a Secret Service is
 * there (or can be started), it has a default keyring, and that keyring is unlocked.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BusSocketKind } from './bus-socket.js';
import { DbusConnection } from './dbus-connection.js';
import type { Reply } from './dbus-wire.js';
import { KEYRING_LOCKED } from './keyring-locked.js';

export const SECRETS = { destination: 'org.freedesktop.secrets', path: '/org/freedesktop/secrets' };
export const SERVICE_INTERFACE = 'org.freedesktop.Secret.Service';

/** Where the session bus listens: DBUS_SESSION_BUS_ADDRESS, else `$XDG_RUNTIME_DIR/bus`. */
export function sessionBusSocket(env: NodeJS.ProcessEnv): { path: string } | { reason: string } {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) {
    const runtimeBus = env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'bus') : undefined;
    if (runtimeBus && existsSync(runtimeBus)) return { path: runtimeBus };
    return { reason: 'no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set' };
  }
  for (const candidate of address.split(';')) {
    const colon = candidate.indexOf(':');
    if (candidate.slice(0, colon) !== 'unix') continue;
    const params = new Map(
      candidate
        .slice(colon + 1)
        .split(',')
        .map((pair) => {
          const eq = pair.indexOf('=');
          return [pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1))] as const;
        }),
    );
    const path = params.get('path');
    if (path) return { path };
    const abstract = params.get('abstract');
    if (abstract) return { path: `\0${abstract}` }; // Linux abstract socket namespace
  }
  return { reason: 'the D-Bus session bus address has no unix socket tokencli can use' };
}

/** An open connection to a Secret Service that passed the probe; close it when done. */
export type OpenedSecretService = { ok: true; connection: DbusConnection } | { ok: false; reason: string };

/** ReadAlias(in s name, out o collection): "/" when there is no such alias. */
export const READ_DEFAULT_ALIAS = {
  ...SECRETS,
  interface: SERVICE_INTERFACE,
  member: 'ReadAlias',
  args: ['default'],
};

/** The Locked property of the collection at `path`. */
function lockedOf(path: string) {
  return {
    destination: SECRETS.destination,
    path,
    interface: 'org.freedesktop.DBus.Properties',
    member: 'Get',
    args: ['org.freedesktop.Secret.Collection', 'Locked'],
  };
}

/**
 * The default collection under its alias path (Secret Service API, "Collection aliases"), which
 * gnome-keyring and KeePassXC serve: asked at once, its Locked property needs no answer from
 * ReadAlias first.
 */
const DEFAULT_ALIAS_PATH = '/org/freedesktop/secrets/aliases/default';

export interface OpenSecretServiceOptions {
  /** Makes calls of its own on the connection, sent with the probe's (see below). */
  alongside?: ((connection: DbusConnection) => void) | undefined;
  /** How the socket is had (bus-socket.ts); by default, the cheapest this node allows. */
  socketKind?: BusSocketKind | undefined;
}

/**
 * Runs the probe and, when it passes, keeps its connection open for reading an item
 * (secret-service-entries.ts). Never rejects, never takes longer than about `timeoutMs`.
 *
 * The probe's calls go out with the handshake, and so do the calls `alongside` makes when it is
 * given the connection (a lookup the caller will want next): with a service that serves the
 * default alias path, all of it takes one round trip. Nothing the probe or a lookup sends prompts
 * or changes anything, so sending it before the probe has passed is safe; the caller awaits its
 * answers only if the probe passes.
 */
export async function openSecretService(
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
  { alongside, socketKind }: OpenSecretServiceOptions = {},
): Promise<OpenedSecretService> {
  const target = sessionBusSocket(env);
  if ('reason' in target) return { ok: false, reason: target.reason };
  const connection = DbusConnection.connect(target.path, timeoutMs, socketKind);
  const [alias, defaultLocked] = connection.callAll([READ_DEFAULT_ALIAS, lockedOf(DEFAULT_ALIAS_PATH)]);
  alongside?.(connection);
  try {
    await connection.ready('the D-Bus session bus');
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  try {
    const problem = await connection.step('the Secret Service', () =>
      defaultKeyringProblem(connection, alias, defaultLocked),
    );
    if (problem === undefined) return { ok: true, connection };
    connection.close();
    return { ok: false, reason: problem };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

/** Why the default keyring cannot serve us without prompting, or undefined when it can. */
async function defaultKeyringProblem(
  connection: DbusConnection,
  aliasReply: Promise<Reply>,
  lockedReply: Promise<Reply>,
): Promise<string | undefined> {
  const alias = await aliasReply;
  if (alias.isError) return `no Secret Service on the session bus (${alias.errorName})`;
  if (typeof alias.value !== 'string' || alias.value === '/') {
    return 'the Secret Service has no default keyring';
  }
  let locked = await lockedReply;
  // A service without alias paths is asked again at the collection's own path.
  if (locked.isError) locked = await connection.call(lockedOf(alias.value));
  if (locked.isError) return `the Secret Service failed (${locked.errorName})`;
  if (locked.value === true) return KEYRING_LOCKED;
  return undefined;
}
