/**
 * The process's streams and terminal facts, gathered in one place so commands never touch
 * `process` directly and tests can run a command against buffers (see `createTestIO` in test/helpers/test-io.ts).
 */
import { writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { TokencliError } from '../../errors.js';

/** What commands need of an output stream. */
export interface Output {
  write(text: string): unknown;
}

export interface IO {
  stdout: Output;
  stderr: Writable;
  stdin: Readable;
  /** Decides prompting: secrets are only prompted for on a terminal (docs/contract.md §2.1). */
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

/**
 * stdout written straight to file descriptor 1. Creating `process.stdout` builds a stream (and
 * for a pipe a socket) costing milliseconds that `tokencli token` would pay on every call just to
 * print one line. Falls back to the stream where the descriptor is non-blocking (EAGAIN).
 */
function stdoutWriter(onError: (error: NodeJS.ErrnoException) => void): Output {
  let stream: NodeJS.WriteStream | undefined;
  const viaStream = (text: string | Buffer) => {
    if (!stream) {
      stream = process.stdout;
      stream.on('error', onError);
    }
    return stream.write(text);
  };
  return {
    write(text: string) {
      if (stream) return viaStream(text);
      let buffer = Buffer.from(text, 'utf8');
      try {
        while (buffer.length > 0) buffer = buffer.subarray(writeSync(1, buffer));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return viaStream(buffer);
        onError(error as NodeJS.ErrnoException);
        return false;
      }
    },
  };
}

export function processIO(): IO {
  // `tokencli … | head` closes the pipe early; that is the reader's choice, not an error.
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  };
  // A full disk or a failing device is no bug of tokencli's: said as what it is (exit 1), without
  // the "report it" hint of an internal error.
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') onError(error); // ends the run, quietly
    throw new TokencliError(`cannot write to standard output: ${error.message}`, {
      code: 'internal',
      cause: error,
    });
  };
  let stderrReady = false;
  // stdin and stderr are created lazily by node; most runs of `tokencli token` touch neither,
  // so they are looked at only when a command asks (start-up is benchmarked).
  return {
    stdout: stdoutWriter(onStdoutError),
    get stderr() {
      if (!stderrReady) {
        stderrReady = true;
        process.stderr.on('error', onError);
      }
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    get stdoutIsTTY() {
      return process.stdout.isTTY === true;
    },
    get stderrIsTTY() {
      return process.stderr.isTTY === true;
    },
    env: process.env,
  };
}

/**
 * Colours only on a terminal, never with NO_COLOR (any non-empty value, per no-color.org) or
 * `--no-color` (docs/contract.md §2.6). FORCE_COLOR turns them on off a terminal too (a CI log, a pager),
 * as in chalk and node: `0` or `false` off, any other value (also empty) on; the two opt-outs win.
 * A terminal that says `TERM=dumb` (Emacs shell buffers, some CI runners) cannot show escape
 * sequences: no colours there unless FORCE_COLOR asks, as in node's own colour check.
 */
export function colorEnabled(io: IO, stream: 'stdout' | 'stderr', noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  const noColor = io.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (io.env.TERM === 'dumb') return false;
  return stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
}
