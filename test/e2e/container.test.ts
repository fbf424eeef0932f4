/**
 * The container recipe: builds the Dockerfile and runs `tokencli serve` in it,
 * then gets a token from the container with the built CLI. Needs a container runtime that answers
 * and the `node:24-slim` base image already present: nothing is pulled by this test. Skipped with
 * the reason otherwise, in CI too (CI need not run containers).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { demoEnv } from './env.js';

const ROOT = resolve(import.meta.dirname, '../..');
const IMAGE = `tokencli-serve-test:${process.pid}`;
const BASE_IMAGE = 'node:24-slim';

function docker(args: string[], timeoutMs = 30_000): { ok: boolean; out: string } {
  const r = spawnSync('docker', args, { cwd: ROOT, encoding: 'utf8', timeout: timeoutMs });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

function whyNot(): string {
  const info = docker(['info', '--format', '{{.ServerVersion}}'], 10_000);
  if (!info.ok)
    return `no container runtime answers: docker info: ${info.out.split('\n').pop() || 'not found'}`;
  if (!docker(['image', 'inspect', BASE_IMAGE]).ok) {
    return `the base image ${BASE_IMAGE} is not present locally (this test pulls nothing)`;
  }
  return '';
}

const skipReason = whyNot();
let container = '';
const dirs: string[] = [];

afterAll(async () => {
  if (container) docker(['rm', '--force', container]);
  if (!skipReason) docker(['image', 'rm', '--force', IMAGE]);
  const { rmSync } = await import('node:fs');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test.skipIf(skipReason !== '')(
  `the image serves tokens as a non-root user${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  async () => {
    const build = docker(['build', '--pull=false', '-t', IMAGE, '.'], 600_000);
    expect(build.ok, build.out).toBe(true);
    const run = docker(['run', '--detach', '--publish', '127.0.0.1::8080', IMAGE]);
    expect(run.ok, run.out).toBe(true);
    container = run.out.split('\n').pop() ?? '';
    const port = docker(['port', container, '8080/tcp']).out.split(':').pop();
    await expect.poll(() => docker(['logs', container]).out, { timeout: 30_000 }).toContain('"base_url"');
    expect(docker(['exec', container, 'id', '-u']).out).not.toBe('0');

    const configDir = tempDir();
    dirs.push(configDir);
    const r = await runCli(['token'], { env: demoEnv(`http://127.0.0.1:${port}`, configDir) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);

    expect(docker(['stop', '--time', '10', container]).ok).toBe(true);
    const state = docker(['inspect', '--format', '{{.State.ExitCode}}', container]);
    expect(state.out).toBe('0');
  },
  900_000,
);
