/**
 * build-release.mjs signalled alone (as scripts/build.mjs passes on an interruption to the step
 * it runs, or a cancelled job) stops build-sea.mjs, which cleans up after its own children
 * (test/release/train-code-cache.test.ts), and only then ends by that signal. Run in a copy of the
 * scripts and dist/ (`npm run build` first) whose build-sea.mjs is a stand-in that says what it was
 * sent. A build-sea that fails ends it as it did, with no scratch left either way.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * A copy of the scripts and dist/ whose build-sea.mjs begins an executable in its scratch
 * directory, logs its pid to build-sea.log and then does `then` (JavaScript).
 */
function releaseCheckout(then: string[]) {
  const dir = tempDir('tokencli-build-release-');
  cpSync(join(root, 'scripts'), join(dir, 'scripts'), { recursive: true });
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
  const said = join(dir, 'build-sea.log');
  writeFileSync(
    join(dir, 'scripts', 'release', 'build-sea.mjs'),
    [
      "import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';",
      "import { join } from 'node:path';",
      `const log = (line) => appendFileSync(${JSON.stringify(said)}, line + '\\n');`,
      "mkdirSync(process.argv[2], { recursive: true }); writeFileSync(join(process.argv[2], 'tokencli'), '');",
      "log('began ' + process.pid);",
      ...then,
    ].join('\n'),
  );
  return { dir, said: () => (existsSync(said) ? readFileSync(said, 'utf8') : '') };
}

function buildRelease(dir: string) {
  const build = spawn(process.execPath, [join(dir, 'scripts', 'release', 'build-release.mjs')], {
    cwd: dir,
    env: { ...process.env, SOURCE_DATE_EPOCH: '1600000000' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  build.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const ended = new Promise((res) =>
    build.once('close', (status, signal) => res({ status, signal, stderr })),
  );
  return { build, ended };
}

test.runIf(process.platform !== 'win32').each(['SIGTERM', 'SIGINT'] as const)(
  '%s to build-release alone stops build-sea, waits for it, and ends by that signal, its scratch gone (skipped on Windows: POSIX signals)',
  async (sent) => {
    // It takes a moment to clean up after the signal, as the real one does, and then ends by it.
    const { dir, said } = releaseCheckout([
      "for (const name of ['SIGINT', 'SIGTERM'])",
      '  process.once(name, () => { log(name); setTimeout(() => { log("cleaned up"); process.kill(process.pid, name); }, 300); });',
      'setTimeout(() => {}, 30_000);',
    ]);
    const { build, ended } = buildRelease(dir);
    const until = Date.now() + 10_000;
    while (!said().includes('began')) {
      if (Date.now() > until) throw new Error('build-sea did not begin');
      await new Promise((res) => setTimeout(res, 25));
    }
    const seaPid = Number(/began (\d+)/.exec(said())?.[1]);
    build.kill(sent);
    expect(await ended).toEqual({ status: null, signal: sent, stderr: '' });
    // build-sea heard it from build-release (the signal went to build-release alone) and had
    // cleaned up by the time build-release ended.
    expect(said()).toBe(`began ${seaPid}\nSIGTERM\ncleaned up\n`);
    expect(() => process.kill(seaPid, 0)).toThrow();
    // Nor is the scratch left, with the executable begun in it.
    expect(existsSync(join(dir, '.tmp', 'release'))).toBe(false);
  },
  20_000,
);

test('a build-sea that fails ends build-release with its exit code, its words, and no scratch left', async () => {
  const { dir, said } = releaseCheckout(["console.error('build-sea: no strip here');", 'process.exit(3);']);
  expect(await buildRelease(dir).ended).toEqual({
    status: 3,
    signal: null,
    stderr: 'build-sea: no strip here\n',
  });
  expect(said()).toMatch(/^began \d+\n$/);
  expect(existsSync(join(dir, '.tmp', 'release'))).toBe(false);
});
