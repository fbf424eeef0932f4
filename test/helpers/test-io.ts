/**
 * An IO over buffers, so a command runs in-process with a chosen environment and terminal facts
 * and its output is read back as text (in-process tests).
 */
import { Readable, Writable } from 'node:stream';
import type { IO } from '../../src/cli/input/io.js';

export interface TestIOOptions {
  env?: NodeJS.ProcessEnv;
  /** What stdin holds; default empty. */
  stdin?: string;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
}

export interface TestIO extends IO {
  /** Everything written to stdout so far. */
  stdoutText(): string;
  /** Everything written to stderr so far. */
  stderrText(): string;
}

export function createTestIO(options: TestIOOptions = {}): TestIO {
  let out = '';
  let err = '';
  const stderr = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      err += chunk.toString();
      callback();
    },
  });
  return {
    stdout: {
      write(text: string) {
        out += text;
        return true;
      },
    },
    stderr,
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin, 'utf8')]),
    stdinIsTTY: options.stdinIsTTY ?? false,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    env: options.env ?? {},
    stdoutText: () => out,
    stderrText: () => err,
  };
}
