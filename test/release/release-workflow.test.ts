/**
 * The release workflow's build matrix against scripts/release/platform.mjs, the list collect.mjs
 * checks the artifacts by: the workflow builds every platform the list names, on a runner of that
 * OS, and lets exactly the best-effort ones fail without holding the release back. (The workflow
 * itself runs only on GitHub; `npm run lint:workflows` checks it against GitHub's schema.) Its jobs
 * keep no dependency cache: what a release ships comes from the registry alone.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { RELEASE_PLATFORMS, releasePlatform } from '../../scripts/release/platform.mjs';

const root = resolve(import.meta.dirname, '../..');
const workflow = readFileSync(join(root, '.github/workflows/release.yml'), 'utf8');

/** The `build` job's lines, from its key to the next job's. */
function buildJob(): string[] {
  const lines = workflow.split('\n');
  const start = lines.indexOf('  build:');
  expect(start, 'release.yml has a build job').toBeGreaterThan(0);
  const end = lines.findIndex((line, i) => i > start && /^ {2}\S/.test(line));
  return lines.slice(start, end < 0 ? undefined : end);
}

/** The matrix's `include` entries, each a flow mapping on one line: `- { target: …, … }`. */
function matrixEntries(): Record<string, string>[] {
  return buildJob()
    .map((line) => /^ {10}- \{ (.*) \}$/.exec(line)?.[1])
    .filter((entry) => entry !== undefined)
    .map((entry) =>
      Object.fromEntries(
        entry.split(', ').map((pair) => {
          const at = pair.indexOf(': ');
          return [pair.slice(0, at), pair.slice(at + 2)];
        }),
      ),
    );
}

test('the build matrix is the release platforms, each on a runner of its OS, best-effort as listed', () => {
  const entries = matrixEntries();
  expect(entries.map((entry) => entry.target)).toEqual(
    RELEASE_PLATFORMS.map(({ platform, arch }) => releasePlatform(platform, arch)),
  );
  const runnerOs = { linux: /^ubuntu-/, darwin: /^macos-/, win32: /^windows-/ };
  RELEASE_PLATFORMS.forEach(({ platform, bestEffort }, i) => {
    expect(entries[i]?.runner).toMatch(runnerOs[platform]);
    expect(entries[i]?.['best-effort']).toBe(String(bestEffort));
  });
});

test('a best-effort build may fail without failing the run; every build uploads over an earlier attempt', () => {
  const job = buildJob();
  expect(job).toContain(`    continue-on-error: \${{ matrix.best-effort }}`);
  // The other platforms' builds are stopped by any of them failing, which continue-on-error spares.
  expect(job).toContain('      fail-fast: true');
  const upload = job.findIndex((line) => line.includes('uses: actions/upload-artifact@'));
  expect(upload).toBeGreaterThan(0);
  expect(job.slice(upload)).toContain('          overwrite: true');
});

test("the release's jobs set up Node with no dependency cache", () => {
  const steps = workflow.split('\n      - ').filter((step) => step.includes('uses: actions/setup-node@'));
  expect(steps.length, 'the build and publish jobs set up Node').toBe(2);
  for (const step of steps) {
    expect(step).toContain('\n          package-manager-cache: false');
    expect(step).not.toMatch(/\n {10}cache:/);
  }
});
