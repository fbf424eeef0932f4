/**
 * One connection to the D-Bus session bus, in plain JavaScript over the socket: the SASL handshake
 * (AUTH EXTERNAL), then method calls answered by serial (D-Bus specification, "Authentication
 * Protocol" and "Message Protocol"). Every step runs under a time limit: a bus that accepts the
 * connection and never answers is given up, and the socket destroyed (SPEC.md §2.7). An open
 * connection keeps the process alive only while a call awaits its answer.
 */
import { connect, type Socket } from 'node:net';
import { formatSeconds } from '../text/seconds.js';
import { decodeMessage, encodeMethodCall, type MethodCall, type Reply } from './dbus-wire.js';

/** Thrown when a step fails or runs out of time; `message` is the reason, ready for a warning. */
export class DbusStepError extends Error {}

/** The socket itself failed (ENOENT, ECONNREFUSED, …): the bus cannot be reached. */
class SocketFailure extends Error {}

export class DbusConnection {
  readonly #socket: Socket;
  readonly #timeoutMs: number;
  /** When the current time budget (one probe, or one read) runs out: steps share it. */
  #deadline: number;
  #buffer = Buffer.alloc(0);
  #serial = 0;
  #waiting: { resolve: (value: Buffer | Reply) => void; reject: (error: Error) => void } | undefined;
  #authenticated = false;
  #pendingSerial = 0;
  #closed = false;
  /** The socket's end (an error, or the peer closing it), reported by every later call. */
  #failure: Error | undefined;

  private constructor(socket: Socket, timeoutMs: number) {
    this.#socket = socket;
    this.#timeoutMs = timeoutMs;
    this.#deadline = Date.now() + timeoutMs;
    socket.on('data', (chunk) => this.#receive(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.#fail(new SocketFailure(error.code ?? error.message)),
    );
    socket.on('close', () => this.#fail(new Error('connection closed')));
  }

  /**
   * Connects to the socket at `path`, authenticates and says Hello.
   * @throws DbusStepError naming `stage` when that fails or takes longer than `timeoutMs`. The
   *   steps after it share the same budget until {@link newBudget}.
   */
  static async open(path: string, timeoutMs: number, stage: string): Promise<DbusConnection> {
    const connection = new DbusConnection(connect(path), timeoutMs);
    await connection.step(stage, async () => {
      await connection.#authenticate();
      await connection.call({
        destination: 'org.freedesktop.DBus',
        path: '/org/freedesktop/DBus',
        interface: 'org.freedesktop.DBus',
        member: 'Hello',
      });
    });
    return connection;
  }

  /** Starts a fresh `timeoutMs` budget for the steps that follow (one keychain call each). */
  newBudget(): void {
    this.#deadline = Date.now() + this.#timeoutMs;
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
    this.#pendingSerial = ++this.#serial;
    this.#socket.write(encodeMethodCall(this.#pendingSerial, call));
    return (await this.#next()) as Reply;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#socket.destroy();
  }

  /** AUTH EXTERNAL with our uid. */
  async #authenticate(): Promise<void> {
    const uid = String(process.getuid?.() ?? '');
    this.#socket.write(`\0AUTH EXTERNAL ${Buffer.from(uid, 'ascii').toString('hex')}\r\n`);
    const line = (await this.#next()) as Buffer;
    if (!line.toString('ascii').startsWith('OK ')) throw new Error('authentication was refused');
    this.#authenticated = true;
    this.#socket.write('BEGIN\r\n');
  }

  #receive(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    this.#drain();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    this.#socket.unref();
    waiting?.reject(error);
  }

  #next(): Promise<Buffer | Reply> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closed) return Promise.reject(new Error('connection closed'));
    // Only a pending answer keeps the process alive; an idle open connection does not.
    this.#socket.ref();
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
        this.#fail(error as Error);
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
    this.#socket.unref();
    waiting?.resolve(value);
  }
}
