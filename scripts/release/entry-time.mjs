/**
 * When the release archive's entries are dated (build-release.mjs): SOURCE_DATE_EPOCH when set,
 * which a build refuses when it is not whole seconds, as the reproducible-builds convention asks;
 * else the time of the checkout's commit; else (a source download, which has no .git) none, and
 * the build dates them now and says why. git looks for the repository in the checkout alone, not
 * in a directory above it (a tree unpacked inside another project would take that one's commit),
 * and reads one that another user owns (a checkout mounted into a container), whose build scripts
 * the build runs anyway.
 */
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { BuildFailure } from './failure.mjs';

/**
 * `{ seconds }`, or `{ why }` when there is no time to date by. Imports the library's digit rule
 * from dist/ (built.mjs checks that it is there).
 *
 * @param {string} root the checkout
 * @param {NodeJS.ProcessEnv} [env]
 */
export async function entryTime(root, env = process.env) {
  const { isAsciiDigits } = await import('../../dist/text/ascii-digits.js');
  const given = env.SOURCE_DATE_EPOCH;
  if (given) {
    if (!isAsciiDigits(given))
      throw new BuildFailure(
        `SOURCE_DATE_EPOCH must be whole seconds since 1970 (as \`date +%s\` prints), not ${JSON.stringify(given)}`,
      );
    return { seconds: Number(given) };
  }
  const git = spawnSync('git', ['-c', 'safe.directory=*', 'log', '-1', '--format=%ct'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...env, GIT_CEILING_DIRECTORIES: dirname(root) },
  });
  const time = git.stdout?.trim() ?? '';
  if (git.status === 0 && isAsciiDigits(time)) return { seconds: Number(time) };
  if (git.error) return { why: 'git is not installed' };
  return { why: git.stderr.trim().split('\n')[0] || `git log exited with ${git.status}` };
}
