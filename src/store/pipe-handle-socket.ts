/**
 * A Unix socket as node's own libuv pipe handle: the `Pipe` of node's `pipe_wrap` binding, which
 * every `net.Socket` on a Unix socket wraps, read and written the way node's own stream code does
 * it (lib/net.js and lib/internal/stream_base_commons.js of node 20 to 26). A contained bet on a
 * private interface: everything that touches it is in this file.
 *
 * What it buys: the cached keychain `token` is measured against an empty node program, and loading
 * `node:net` (some thirty internal modules, the whole streams machinery) and building a socket
 * stream were most of what the read cost beyond the file store's path. Alternated with the build
 * before it, the cached keychain `token` went from 57.8 to 45.7 ms on Node 20 and from 58.6 to
 * 49.7 ms on Node 24: about 10 ms, the margin that keeps that row within its goal (bench/README.md).
 *
 * What would break it: the binding is node's internal interface, reached through `process.binding`
 * (deprecated in documentation only, DEP0111; `pipe_wrap` and `stream_wrap` are on its allow-list).
 * A Node release may rename or reshape `Pipe`, `PipeConnectWrap`, `WriteWrap` or the stream state
 * slots, or drop `process.binding` altogether. So it is used only where it is known to work: a
 * Node line the test suite runs on, whose binding has the shape this code checks for, while
 * `process.binding` is node's own (under `--pending-deprecation` node replaces it with one that
 * warns) and callable (the permission model refuses it). Anywhere else {@link pipeHandleBindings}
 * says no and bus-socket.ts uses `node:net`, which the tests run on every Node line as well
 * (test/store/bus-socket.test.ts, test/store/secret-service-entries.test.ts).
 *
 * When to drop it: when the suite fails on a new Node line because of this file (leave the line
 * out of TESTED_NODE_MAJORS and it gets `node:net`), when `process.binding` goes, or when loading
 * `node:net` no longer costs a measurable part of the keychain row (measure with
 * `BENCH_ONLY=keychain npm run bench` against a build that forces `node:net`).
 */
import type { BusSocket, BusSocketEvents } from './bus-socket.js';

/** The Node lines the test suite runs this code on (.ci/run); any other gets node:net. */
export const TESTED_NODE_MAJORS: ReadonlySet<number> = new Set([20, 22, 24, 26]);

interface PipeHandle {
  /** Called with the read buffer; the byte count (or a negative error) is in the stream state. */
  onread: (buffer: ArrayBuffer | undefined) => void;
  connect(request: CompletionRequest, path: string): number;
  readStart(): number;
  writeBuffer(request: WriteRequest, bytes: Uint8Array): number;
  ref(): void;
  unref(): void;
  close(callback: () => void): void;
}

interface CompletionRequest {
  oncomplete: (status: number) => void;
}

interface WriteRequest extends CompletionRequest {
  handle: PipeHandle;
  /** The bytes of a write still in progress, kept alive until it completes. */
  buffer?: Uint8Array;
}

export interface PipeHandleBindings {
  readonly newPipe: () => PipeHandle;
  readonly newConnectRequest: () => CompletionRequest;
  readonly newWriteRequest: () => WriteRequest;
  /** Written by every read and write: its slots are named by the indices below. */
  readonly state: Int32Array;
  readonly readBytesOrError: number;
  readonly arrayBufferOffset: number;
  readonly lastWriteWasAsync: number;
}

let bindings: PipeHandleBindings | undefined | null = null;

/** The pipe handle's bindings where they are known to work (see above), else undefined. */
export function pipeHandleBindings(): PipeHandleBindings | undefined {
  if (bindings === null) bindings = loadBindings();
  return bindings;
}

function loadBindings(): PipeHandleBindings | undefined {
  if (!TESTED_NODE_MAJORS.has(Number(process.versions.node.split('.')[0]))) return undefined;
  const binding = (process as { binding?: unknown }).binding;
  if (typeof binding !== 'function' || binding.name !== 'binding') return undefined;
  try {
    const pipe = binding('pipe_wrap');
    const stream = binding('stream_wrap');
    const { Pipe, PipeConnectWrap, constants } = pipe ?? {};
    const { WriteWrap, streamBaseState, kReadBytesOrError, kArrayBufferOffset, kLastWriteWasAsync } =
      stream ?? {};
    const indices = [kReadBytesOrError, kArrayBufferOffset, kLastWriteWasAsync];
    if (
      typeof Pipe !== 'function' ||
      typeof PipeConnectWrap !== 'function' ||
      typeof WriteWrap !== 'function' ||
      typeof constants?.SOCKET !== 'number' ||
      !(streamBaseState instanceof Int32Array) ||
      !indices.every((index) => Number.isInteger(index) && index >= 0 && index < streamBaseState.length) ||
      !['connect', 'readStart', 'writeBuffer', 'ref', 'unref', 'close'].every(
        (method) => typeof Pipe.prototype[method] === 'function',
      )
    ) {
      return undefined;
    }
    return {
      newPipe: () => new Pipe(constants.SOCKET),
      newConnectRequest: () => new PipeConnectWrap(),
      newWriteRequest: () => new WriteWrap(),
      state: streamBaseState,
      readBytesOrError: kReadBytesOrError,
      arrayBufferOffset: kArrayBufferOffset,
      lastWriteWasAsync: kLastWriteWasAsync,
    };
  } catch {
    return undefined;
  }
}

/** Connects a pipe handle to the Unix socket at `path`; see bus-socket.ts for the contract. */
export function connectPipeHandle(
  bindings: PipeHandleBindings,
  path: string,
  events: BusSocketEvents,
): BusSocket {
  const { state } = bindings;
  const handle = bindings.newPipe();
  /** Bytes written before the connection completed; undefined once it has. */
  let waiting: Buffer[] | undefined = [];
  /** Nothing more is reported but `close`: set by a failure, the peer's end or destroy(). */
  let ended = false;
  let handleClosed = false;

  const close = () => {
    ended = true;
    waiting = undefined;
    if (handleClosed) return;
    handleClosed = true;
    handle.close(() => events.close());
  };
  // Reported on a later turn, as a net.Socket reports its errors; then the handle is closed.
  const fail = (status: number) => {
    if (ended) return;
    ended = true;
    process.nextTick(() => {
      events.error(errorCode(status));
      close();
    });
  };
  const send = (bytes: Buffer) => {
    const request = bindings.newWriteRequest();
    request.handle = handle;
    request.oncomplete = (status) => {
      if (status < 0) fail(status);
    };
    const status = handle.writeBuffer(request, bytes);
    if (status !== 0) fail(status);
    else if (state[bindings.lastWriteWasAsync]) request.buffer = bytes;
  };

  handle.onread = (buffer) => {
    const count = state[bindings.readBytesOrError] as number;
    const offset = state[bindings.arrayBufferOffset] as number;
    if (ended) return;
    if (count > 0 && buffer) events.data(Buffer.from(buffer, offset, count));
    else if (count < 0) {
      if (errorCode(count) === 'EOF') close();
      else fail(count);
    }
  };
  const request = bindings.newConnectRequest();
  request.oncomplete = (status) => {
    if (ended) return;
    if (status < 0) return fail(status);
    const started = handle.readStart();
    if (started !== 0) return fail(started);
    const bytes = waiting;
    waiting = undefined;
    if (bytes && bytes.length > 0) send(bytes.length === 1 ? (bytes[0] as Buffer) : Buffer.concat(bytes));
  };
  const status = handle.connect(request, path);
  if (status !== 0) fail(status);

  return {
    write: (bytes) => {
      if (ended) return;
      if (waiting) waiting.push(bytes);
      else send(bytes);
    },
    ref: () => {
      if (!handleClosed) handle.ref();
    },
    unref: () => {
      if (!handleClosed) handle.unref();
    },
    destroy: close,
  };
}

/**
 * libuv's name of a negative status (`ENOENT`, `ECONNREFUSED`, `EOF`). From node:util as node's
 * own module, not an ES module import: the library's build would build node:util's ES module
 * facade, which creates process.stderr and costs milliseconds on Node 24 and later.
 */
function errorCode(status: number): string {
  return status < 0 ? process.getBuiltinModule('node:util').getSystemErrorName(status) : `status ${status}`;
}
