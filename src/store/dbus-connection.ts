/**
 * One connection to the D-Bus session bus, in plain JavaScript over the socket: the SASL handshake
 * (AUTH EXTERNAL), then method calls answered by serial (D-Bus specification, "Authentication
 * Protocol" and "Message Protocol"). Calls are written as soon as they are made, behind the
 * handshake and Hello: the bus reads them in order once it has answered the handshake, and Hello
 * only has to be the first message sent, not the first answered. So calls that do not depend on
 * each other's answers, made together, cost one round trip however early they are made. Every
 * step runs under a time limit: a bus that accepts the connection and never answers is given up,
 * and the socket destroyed (docs/contract.md §2.7). An open connection keeps the process alive
 * only while a call awaits its answer.
 */
// The globals' own functions, taken from node:timers (loaded at node's start) because the builtins
// a run reads are how the launcher's code cache tells this path from the file store's
// (bin/tokencli.js).
import { clearTimeout, setTimeout } from 'node:timers';
import { formatSeconds } from '../text/seconds.js';
import { type BusSocket, type BusSocketKind, connectBusSocket } from './bus-socket.js';
import { decodeMessage, encodeMethodCall, type MethodCall, type Reply } from './dbus-wire.js';

/** Thrown when a step fails or runs out of time; `message` is the reason, ready for a warning. */
export class DbusStepError extends Error {}

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/** The socket itself failed (ENOENT, ECONNREFUSED, …): the bus cannot be reached. */
class SocketFailure extends Error {}

export class DbusConnection {
  readonly #socket: BusSocket;
  readonly #timeoutMs: number;
  /** When the current time budget (one probe, or one read) runs out: steps share it. */
  #deadline: number;
  #buffer = Buffer.alloc(0);
  #serial = 0;
  /** Who awaits the handshake's answer line. */
  #waiting: Waiter<Buffer> | undefined;
  /** Who awaits the answer to each call in flight, by its serial. */
  readonly #calls = new Map<number, Waiter<Reply>>();
  #authenticated = false;
  #closed = false;
  /** The socket's end (an error, or the peer closing it), reported by every later call. */
  #failure: Error | undefined;
  /** The handshake's outcome, then Hello's answer: what {@link ready} awaits. */
  #greeting: Promise<unknown> | undefined;

  private constructor(path: string, timeoutMs: number, socketKind: BusSocketKind | undefined) {
    this.#timeoutMs = timeoutMs;
    this.#deadline = Date.now() + timeoutMs;
    this.#socket = connectBusSocket(
      path,
      {
        data: (chunk) => this.#receive(chunk),
        error: (code) => this.#fail(new SocketFailure(code)),
        close: () => this.#fail(new Error('connection closed')),
      },
      socketKind,
    );
  }

  /**
   * Connects to the socket at `path` and sends the handshake and Hello, without waiting for any
   * answer: calls made now go out right behind them. The time budget starts now. `socketKind`
   * chooses how the socket is had (bus-socket.ts); by default, the cheapest this node allows.
   */
  static connect(path: string, timeoutMs: number, socketKind?: BusSocketKind): DbusConnection {
    const connection = new DbusConnection(path, timeoutMs, socketKind);
    const authenticated = connection.#authenticate();
    const hello = connection.#send({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'Hello',
    });
    // A refused handshake is the error reported, after which Hello's own failure is noise; either
    // is reported by ready(), never as an unhandled rejection.
    hello.catch(() => {});
    connection.#greeting = authenticated.then(() => hello);
    connection.#greeting.catch(() => {});
    return connection;
  }

  /**
   * Waits until the bus has accepted the handshake and answered Hello.
   * @throws DbusStepError naming `stage` when that fails or does not happen within the budget;
   *   the connection is closed then.
   */
  async ready(stage: string): Promise<void> {
    await this.step(stage, async () => {
      await this.#greeting;
    });
  }

  /** Whether it has been closed, or its socket has ended: no call is answered any more. */
  get closed(): boolean {
    return this.#closed || this.#failure !== undefined;
  }

  /**
   * Starts a fresh `timeoutMs` budget for the steps that follow (one keychain call each), `graceMs`
   * longer where a caller's own limit of the same length is to be the one that fires.
   */
  newBudget(graceMs = 0): void {
    this.#deadline = Date.now() + this.#timeoutMs + graceMs;
  }

  /**
   * Runs `work` (calls on this connection) within what is left of the budget; on failure or
   * timeout the connection is closed and a DbusStepError naming `stage` thrown.
   */
  async step<T>(stage: string, work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DbusStepError(`${stage} did not answer within ${formatSeconds(this.#timeoutMs)}s`)),
        Math.max(0, this.#deadline - Date.now()),
      );
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      this.close();
      if (error instanceof DbusStepError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new DbusStepError(
        error instanceof SocketFailure ? `cannot reach ${stage}: ${message}` : `${stage} failed: ${message}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  async call(call: MethodCall): Promise<Reply> {
    return this.#send(call);
  }

  /**
   * Calls that do not depend on each other, sent together: one round trip for all of them. The
   * caller awaits the answers in order and may stop after any of them (an answer not awaited when
   * the connection closes is dropped, not reported as unhandled).
   */
  callAll<const Calls extends readonly MethodCall[]>(calls: Calls): { [K in keyof Calls]: Promise<Reply> } {
    return calls.map((call) => {
      const reply = this.#send(call);
      reply.catch(() => {});
      return reply;
    }) as { [K in keyof Calls]: Promise<Reply> };
  }

  #send(call: MethodCall): Promise<Reply> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closed) return Promise.reject(new Error('connection closed'));
    const serial = ++this.#serial;
    // Only a pending answer keeps the process alive; an idle open connection does not.
    this.#socket.ref();
    const reply = new Promise<Reply>((resolve, reject) => {
      this.#calls.set(serial, { resolve, reject });
    });
    this.#socket.write(encodeMethodCall(serial, call));
    this.#drain();
    return reply;
  }

  /** Hangs up: no call is sent or answered from now on. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#socket.destroy();
  }

  /**
   * AUTH EXTERNAL with our uid, and BEGIN right behind it (as sd-bus does): the bus reads BEGIN
   * only after it has answered OK, and a refused handshake fails here whatever follows it.
   */
  async #authenticate(): Promise<void> {
    const uid = String(process.getuid?.() ?? '');
    this.#socket.write(
      Buffer.from(`\0AUTH EXTERNAL ${Buffer.from(uid, 'ascii').toString('hex')}\r\nBEGIN\r\n`, 'latin1'),
    );
    const line = await this.#nextLine();
    if (!line.toString('ascii').startsWith('OK ')) throw new Error('authentication was refused');
    this.#authenticated = true;
    this.#drain();
  }

  #receive(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    this.#drain();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    const waiters: Waiter<never>[] = [...(this.#waiting ? [this.#waiting] : []), ...this.#calls.values()];
    this.#waiting = undefined;
    this.#calls.clear();
    this.#socket.unref();
    for (const waiter of waiters) waiter.reject(error);
  }

  #nextLine(): Promise<Buffer> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closed) return Promise.reject(new Error('connection closed'));
    this.#socket.ref();
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#drain();
    });
  }

  #drain(): void {
    if (!this.#authenticated) {
      if (!this.#waiting) return;
      const end = this.#buffer.indexOf('\r\n');
      if (end < 0) return;
      const line = this.#buffer.subarray(0, end);
      this.#buffer = this.#buffer.subarray(end + 2);
      const waiting = this.#waiting;
      this.#waiting = undefined;
      this.#idleUnlessAwaited();
      waiting.resolve(line);
      return;
    }
    while (this.#calls.size > 0) {
      let decoded: ReturnType<typeof decodeMessage>;
      try {
        decoded = decodeMessage(this.#buffer);
      } catch (error) {
        this.#fail(error as Error);
        return;
      }
      if (!decoded) return;
      this.#buffer = this.#buffer.subarray(decoded.size);
      // Signals (NameAcquired after Hello) and anything else not answering a call are skipped.
      const serial = decoded.reply.replySerial;
      const waiter = serial === undefined ? undefined : this.#calls.get(serial);
      if (!waiter || serial === undefined) continue;
      this.#calls.delete(serial);
      this.#idleUnlessAwaited();
      waiter.resolve(decoded.reply);
    }
  }

  /** An open connection with nothing awaited does not keep the process alive. */
  #idleUnlessAwaited(): void {
    if (!this.#waiting && this.#calls.size === 0) this.#socket.unref();
  }
}
