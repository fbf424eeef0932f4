/**
 * build-release.mjs signalled alone (as scripts/build.mjs passes on an interruption to the step
 * it runs, or a cancelled job) stops build-sea.mjs, which cleans up after its own children
 * (test/release/train-code-cache.test.ts), and only then ends by that signal. Run in a copy of the
 * scripts and dist/ (`npm run build` first) whose build-sea.mjs is a stand-in that says what it was
 * sent.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');

test.runIf(process.platform !== 'win32').each(['SIGTERM', 'SIGINT'] as const)(
  '%s to build-release alone stops build-sea, waits for it, and ends by that signal (skipped on Windows: POSIX signals)',
  async (sent) => {
    const dir = tempDir('tokencli-build-release-');
    cpSync(join(root, 'scripts'), join(dir, 'scripts'), { recursive: true });
    cpSync(join(root, 'package.json'), join(dir, 'package.json'));
    cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
    const said = join(dir, 'build-sea.log');
    // It takes a moment to clean up after the signal, as the real one does, and then ends by it.
    writeFileSync(
      join(dir, 'scripts', 'release', 'build-sea.mjs'),
      [
        "import { appendFileSync } from 'node:fs';",
        `const log = (line) => appendFileSync(${JSON.stringify(said)}, line + '\\n');`,
        "for (const name of ['SIGINT', 'SIGTERM'])",
        '  process.once(name, () => { log(name); setTimeout(() => { log("cleaned up"); process.kill(process.pid, name); }, 300); });',
        "log('began ' + process.pid);",
        'setTimeout(() => {}, 30_000);',
      ].join('\n'),
    );
    const build = spawn(process.execPath, [join(dir, 'scripts', 'release', 'build-release.mjs')], {
      cwd: dir,
      env: { ...process.env, SOURCE_DATE_EPOCH: '1600000000' },
      stdio: 'ignore',
    });
    const ended = new Promise((res) => build.once('exit', (status, signal) => res({ status, signal })));
    const until = Date.now() + 10_000;
    while (!(existsSync(said) && readFileSync(said, 'utf8').includes('began'))) {
      if (Date.now() > until) throw new Error('build-sea did not begin');
      await new Promise((res) => setTimeout(res, 25));
    }
    const seaPid = Number(/began (\d+)/.exec(readFileSync(said, 'utf8'))?.[1]);
    build.kill(sent);
    expect(await ended).toEqual({ status: null, signal: sent });
    // build-sea heard it from build-release (the signal went to build-release alone) and had
    // cleaned up by the time build-release ended.
    expect(readFileSync(said, 'utf8')).toBe(`began ${seaPid}\nSIGTERM\ncleaned up\n`);
    expect(() => process.kill(seaPid, 0)).toThrow();
  },
  20_000,
);
