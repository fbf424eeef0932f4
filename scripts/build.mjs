/**
 * `npm run build`, and with --release `npm run build:release`: under the checkout's build lock
 * (build-lock.mjs, one build at a time), removes the previous build, compiles src/ into dist/
 * (tsc), writes the bundles (bundle.mjs), and with --release then writes release/
 * (release/build-release.mjs). Each step but the first is its own process, as when the npm scripts
 * chained them; the first that fails ends the build with its exit code, having said why on the
 * stderr they share. Interrupted, it stops the step that runs and removes the lock
 * (release/interruptible.mjs).
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { withBuildLock } from './build-lock.mjs';
import { BuildFailure, reportFailures } from './release/failure.mjs';
import { exitStatus, interruptible, runChild } from './release/interruptible.mjs';

reportFailures('build');

const root = resolve(import.meta.dirname, '..');
const flags = process.argv.slice(2);
if (flags.some((flag) => flag !== '--release')) {
  console.error('build: usage: build.mjs [--release]');
  process.exit(2);
}
// Each tool's own script, run by this node: node_modules/.bin holds shell wrappers, which Windows
// cannot start.
const steps = [
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
  [join(root, 'scripts', 'bundle.mjs')],
];
if (flags.includes('--release')) steps.push([join(root, 'scripts', 'release', 'build-release.mjs')]);

await interruptible((signal) =>
  withBuildLock(
    root,
    async () => {
      // The previous build goes first, so that files deleted from src/ do not linger in dist/,
      // where `npm pack` (which build:release runs without prepack) would ship them.
      // Retried, as a step of a build killed outright may still be writing there for a moment.
      try {
        rmSync(join(root, 'dist'), { recursive: true, force: true, maxRetries: 5 });
      } catch (error) {
        throw new BuildFailure(`cannot remove the previous build: ${error.message}`);
      }
      for (const [script, ...args] of steps) {
        try {
          await runChild(process.execPath, [script, ...args], { signal, cwd: root, stdio: 'inherit' });
        } catch (error) {
          if (signal.aborted) throw error;
          // The step said why on its own stderr; one that could not start did not.
          if (error.status == null && error.signal == null)
            console.error(`build: cannot run ${script}: ${error.message}`);
          process.exitCode = exitStatus(error);
          return;
        }
      }
    },
    {
      signal,
      onWait: (pid) =>
        console.error(`build: waiting for the build that process ${pid} runs in this checkout to end`),
    },
  ),
);
