/**
 * The built CLI on a pseudo-terminal: util-linux `script` gives it one, so stdin, stdout and
 * stderr are all a terminal (prompts, colours). Where `script` is missing the tests that need it
 * skip and say so (`hasScript`); in CI it fails the run.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { requiredInCi } from './ci-required.js';
import { CLI_SH, cleanEnv } from './cli.js';

/** Why the terminal tests skip, or undefined: macOS's `script` is BSD's, without `-e` or `-c`. */
export const scriptMissing =
  process.platform !== 'linux'
    ? "they drive util-linux's script, which this platform lacks"
    : ['/usr/bin/script', '/bin/script'].some((p) => existsSync(p))
      ? undefined
      : 'the script command is not installed';
export const hasScript = scriptMissing === undefined;
requiredInCi(scriptMissing, "install Debian's bsdutils");

export interface TerminalRun {
  /** Typed once the output matches `prompt` (everything the CLI printed so far, both streams). */
  answer?: { prompt: RegExp; keys: string };
}

/**
 * Runs the CLI on a pty (TERM=dumb unless `env` names another) and resolves with its exit code and
 * all it printed, stdout and stderr together as a terminal shows them.
 */
export function onTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  options: TerminalRun = {},
): Promise<{ code: number | null; output: string }> {
  const command = `${CLI_SH} ${args.map((a) => `'${a}'`).join(' ')}`;
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
    env: cleanEnv({ TERM: 'dumb', ...env }),
    stdio: 'pipe',
  });
  let output = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    output += d;
    if (options.answer && !answered && options.answer.prompt.test(output)) {
      answered = true;
      child.stdin.write(options.answer.keys);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}
