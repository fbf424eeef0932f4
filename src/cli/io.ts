/**
 * The process's streams and terminal facts, gathered in one place so commands never touch
 * `process` directly and tests can run a command against buffers (see `createTestIO`).
 */
import type { Readable, Writable } from 'node:stream';

export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  /** Decides prompting: secrets are only prompted for on a terminal (SPEC.md §2.1). */
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

export function processIO(): IO {
  // `tokencli … | head` closes the pipe early; that is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
  };
}

/**
 * Colours only on a terminal, never with NO_COLOR (any non-empty value, per no-color.org) or
 * `--no-color` (SPEC.md §2.6).
 */
export function colorEnabled(io: IO, stream: 'stdout' | 'stderr', noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  const noColor = io.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  return stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
}
