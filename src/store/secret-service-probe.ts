/**
 * Asks the Secret Service (Linux and BSD keychains) whether it can serve us, in plain JavaScript
 * over the D-Bus socket, before the native keyring module is touched.
 *
 * Why not ask the native module: on Linux `@napi-rs/keyring` connects to D-Bus synchronously when
 * an entry is constructed, so a bus that accepts connections and never answers blocks the event
 * loop for good. A worker thread does not help either: a thread stuck in native code cannot be
 * terminated, and Node then never exits. A socket we own can be destroyed after a few seconds
 * (SPEC.md §2.7: a hanging keychain call is given up).
 *
 * The probe checks what would otherwise hang or prompt: the bus answers, a Secret Service is
 * there (or can be started), it has a default keyring, and that keyring is unlocked.
 */
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { formatSeconds } from '../text/seconds.js';
import { decodeMessage, encodeMethodCall, type MethodCall, type Reply } from './dbus-wire.js';

export type ProbeResult = { ok: true } | { ok: false; reason: string };

const SECRETS = { destination: 'org.freedesktop.secrets', path: '/org/freedesktop/secrets' };

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

/** Runs the probe; never rejects, never takes longer than about `timeoutMs`. */
export function probeSecretService(
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProbeResult> {
  const target = sessionBusSocket(env);
  if ('reason' in target) return Promise.resolve({ ok: false, reason: target.reason });
  return new Promise((resolve) => {
    let stage = 'the D-Bus session bus';
    const socket = connect(target.path);
    const finish = (result: ProbeResult) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ ok: false, reason: `${stage} did not answer within ${formatSeconds(timeoutMs)}s` }),
      timeoutMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, reason: `cannot reach ${stage}: ${error.code ?? error.message}` }),
    );
    const conversation = new Conversation(socket);
    socket.on('data', (chunk) => conversation.receive(chunk));
    socket.on('close', () => conversation.fail(new Error('connection closed')));
    const run = async (): Promise<ProbeResult> => {
      await conversation.authenticate();
      await conversation.call({
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'Hello',
      });
      stage = 'the Secret Service';
      const alias = await conversation.call({
        ...SECRETS,
        interface: 'org.freedesktop.Secret.Service',
        member: 'ReadAlias',
        args: ['default'],
      });
      if (alias.isError)
        return { ok: false, reason: `no Secret Service on the session bus (${alias.errorName})` };
      if (typeof alias.value !== 'string' || alias.value === '/') {
        return { ok: false, reason: 'the Secret Service has no default keyring' };
      }
      const locked = await conversation.call({
        destination: SECRETS.destination,
        path: alias.value,
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Get',
        args: ['org.freedesktop.Secret.Collection', 'Locked'],
      });
      if (locked.isError) return { ok: false, reason: `the Secret Service failed (${locked.errorName})` };
      if (locked.value === true) return { ok: false, reason: 'the default keyring is locked' };
      return { ok: true };
    };
    run().then(finish, (error: Error) => finish({ ok: false, reason: `${stage} failed: ${error.message}` }));
  });
}

/** The SASL handshake, then method calls answered by serial. */
class Conversation {
  #buffer = Buffer.alloc(0);
  #serial = 0;
  #waiting: { resolve: (value: Buffer | Reply) => void; reject: (error: Error) => void } | undefined;
  #authenticated = false;
  #pendingSerial = 0;

  constructor(private readonly socket: Socket) {}

  /** AUTH EXTERNAL with our uid (D-Bus specification, "Authentication Protocol"). */
  async authenticate(): Promise<void> {
    const uid = String(process.getuid?.() ?? '');
    this.socket.write(`\0AUTH EXTERNAL ${Buffer.from(uid, 'ascii').toString('hex')}\r\n`);
    const line = (await this.#next()) as Buffer;
    if (!line.toString('ascii').startsWith('OK ')) throw new Error('authentication was refused');
    this.#authenticated = true;
    this.socket.write('BEGIN\r\n');
  }

  async call(call: MethodCall): Promise<Reply> {
    this.#pendingSerial = ++this.#serial;
    this.socket.write(encodeMethodCall(this.#pendingSerial, call));
    return (await this.#next()) as Reply;
  }

  receive(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    this.#drain();
  }

  fail(error: Error): void {
    this.#waiting?.reject(error);
    this.#waiting = undefined;
  }

  #next(): Promise<Buffer | Reply> {
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#drain();
    });
  }

  #drain(): void {
    while (this.#waiting) {
      if (!this.#authenticated) {
        const end = this.#buffer.indexOf('\r\n');
        if (end < 0) return;
        const line = this.#buffer.subarray(0, end);
        this.#buffer = this.#buffer.subarray(end + 2);
        this.#settle(line);
        continue;
      }
      let decoded: ReturnType<typeof decodeMessage>;
      try {
        decoded = decodeMessage(this.#buffer);
      } catch (error) {
        this.fail(error as Error);
        return;
      }
      if (!decoded) return;
      this.#buffer = this.#buffer.subarray(decoded.size);
      // Signals (NameAcquired after Hello) and anything else not answering our call are skipped.
      if (decoded.reply.replySerial === this.#pendingSerial) this.#settle(decoded.reply);
    }
  }

  #settle(value: Buffer | Reply): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve(value);
  }
}
