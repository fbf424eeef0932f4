/**
 * The Unix socket a D-Bus connection (dbus-connection.ts) talks over, as a plain byte stream.
 *
 * Two ways to have one: node's libuv pipe handle itself (pipe-handle-socket.ts), where this node is
 * one that code is known to work with, or else a `net.Socket`. They behave alike for what the
 * connection needs; the handle skips loading `node:net` and building a socket stream on top of it,
 * which cost a cached keychain read more than any other step of it (bench/README.md).
 */
import { connect } from 'node:net';
import { connectPipeHandle, pipeHandleBindings } from './pipe-handle-socket.js';

/** What the socket reports; each is called on a later turn than the call that caused it. */
export interface BusSocketEvents {
  /** Bytes arrived. */
  data(chunk: Buffer): void;
  /** The socket failed: the error's code (`ENOENT`, `ECONNREFUSED`, …). `close` follows. */
  error(code: string): void;
  /** The socket is closed, by either end or by {@link BusSocket.destroy}. */
  close(): void;
}

export interface BusSocket {
  /** Sends `bytes` after what was sent before; bytes sent before the socket is connected wait for it. */
  write(bytes: Buffer): void;
  /** Keeps the process alive while the socket is open (the default). */
  ref(): void;
  /** Lets the process end although the socket is open. */
  unref(): void;
  /** Hangs up; nothing more is reported but `close`. */
  destroy(): void;
}

export type BusSocketKind = 'pipe-handle' | 'net';

/** The kind {@link connectBusSocket} uses by default on this node. */
export function defaultBusSocketKind(): BusSocketKind {
  return pipeHandleBindings() ? 'pipe-handle' : 'net';
}

/** Connects to the Unix socket at `path` (a leading NUL names a Linux abstract socket). */
export function connectBusSocket(
  path: string,
  events: BusSocketEvents,
  kind: BusSocketKind = defaultBusSocketKind(),
): BusSocket {
  const bindings = kind === 'pipe-handle' ? pipeHandleBindings() : undefined;
  if (kind === 'pipe-handle' && !bindings) throw new Error('the pipe handle is not usable on this node');
  return bindings ? connectPipeHandle(bindings, path, events) : connectNetSocket(path, events);
}

function connectNetSocket(path: string, events: BusSocketEvents): BusSocket {
  const socket = connect(path);
  let destroyed = false;
  socket.on('data', (chunk: Buffer) => {
    if (!destroyed) events.data(chunk);
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    if (!destroyed) events.error(error.code ?? error.message);
  });
  socket.on('close', () => events.close());
  return {
    write: (bytes) => {
      if (!destroyed) socket.write(bytes);
    },
    ref: () => void socket.ref(),
    unref: () => void socket.unref(),
    // The socket goes on the next turn of the event loop, not now: node's socket teardown reads
    // process.stderr, which creates that stream (0.5 ms on a file, 2 ms on a terminal) in a run that
    // may never write to it. A process that ends first, like a CLI that has printed its token,
    // leaves the socket to the OS.
    destroy: () => {
      if (destroyed) return;
      destroyed = true;
      socket.unref();
      setImmediate(() => socket.destroy()).unref();
    },
  };
}
