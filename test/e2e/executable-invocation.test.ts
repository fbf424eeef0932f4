/**
 * The single executable started the ways a shell starts it — by a bare name PATH finds, by a
 * path from the working directory — names itself that way in `serve`'s paste-ready lines, and the
 * lines run as printed from the same place. Node gives the executable the command as typed, not
 * its absolute path, so this is only seen against the executable (TOKENCLI_BINARY, which .ci/run
 * sets for one run of test/e2e).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, test } from 'vitest';
import { BINARY, cleanEnv, collectOutput, tempDir, tryItLines } from '../helpers/cli.js';

const windows = process.platform === 'win32';
const title = `serve names the executable as it was typed${BINARY ? '' : ' (skipped: no TOKENCLI_BINARY)'}${windows ? ' (skipped on Windows: a POSIX shell starts it and runs its lines)' : ''}`;

/** `tokencli serve` started by `/bin/sh` as `word`: `use` is given its paste-ready lines, then it is stopped. */
async function withPasteLines(
  word: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  use: (lines: string[]) => Promise<void>,
): Promise<void> {
  const child = spawn('/bin/sh', ['-c', `exec ${word} serve --port 0`], {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    await expect.poll(() => stderr, { timeout: 15_000 }).toMatch(/ info --profile demo\n/);
    await use(tryItLines(stderr));
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Runs a pasted line with `/bin/sh` where the service was started; its exit code and stderr. */
async function runPasted(line: string, env: NodeJS.ProcessEnv, cwd: string) {
  const sh = spawn('/bin/sh', ['-c', line], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  return collectOutput(sh);
}

describe.skipIf(!BINARY || windows)(title, () => {
  // Made before the tests, not while the file is collected: a skipped file runs no clean-up.
  let root = '';
  beforeAll(() => {
    root = tempDir('tokencli-exe-typed-');
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(BINARY ?? '', join(root, 'bin', 'tokencli'));
  });
  const env = (extra: Record<string, string> = {}) =>
    cleanEnv({ TOKENCLI_CONFIG_DIR: tempDir(), TOKENCLI_STORE: 'file', ...extra });

  test.each([
    {
      how: 'a bare name PATH finds, from another directory',
      word: 'tokencli',
      from: 'elsewhere',
      onPath: true,
    },
    { how: './tokencli in its directory', word: './tokencli', from: 'bin', onPath: false },
    { how: 'a relative path from above it', word: 'bin/tokencli', from: '', onPath: false },
  ])('$how', async ({ word, from, onPath }) => {
    const cwd = join(root, from);
    const shellEnv = env(onPath ? { PATH: `${join(root, 'bin')}${delimiter}${process.env.PATH ?? ''}` } : {});
    const command = word.replaceAll('.', '\\.');
    await withPasteLines(word, shellEnv, cwd, async (lines) => {
      expect(lines[0]).toMatch(new RegExp(`^printf %s demo-secret \\| ${command} configure --profile demo `));
      expect(lines[1]).toMatch(
        new RegExp(`^TOKENCLI_PASSWORD=demo-password ${command} token --profile demo`),
      );
      expect(lines[2]).toMatch(new RegExp(`^${command} info --profile demo$`));
      for (const line of lines) {
        const pasted = await runPasted(line, shellEnv, cwd);
        expect(pasted.code, `${line}\n${pasted.stderr}`).toBe(0);
      }
    });
  });
});
