/**
 * `npm pack` yields a package that installs into an empty directory and works there: what
 * `npx tokencli …` will run once published. Uses the dist/ built by `pretest`; packing runs with
 * --ignore-scripts so `prepack` does not rebuild dist/ under the other tests' feet.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli.js';
import { DEMO } from './env.js';

const root = resolve(import.meta.dirname, '../..');

test('the packed tarball installs into an empty directory and runs --version, serve and token', {
  timeout: 180_000,
}, async () => {
  const work = tempDir('tokencli-pack-');
  const npmEnv = cleanEnv({
    npm_config_loglevel: 'error',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: root,
      env: npmEnv,
      encoding: 'utf8',
    }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = packed[0]?.files.map((f) => f.path) ?? [];
  expect(files).toContain('bin/tokencli.js');
  expect(files).toContain('dist/cli-bundle/main.js');
  expect(files).toContain('dist/server/index.js');
  expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);

  const app = join(work, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), '{"name":"consumer","version":"1.0.0","private":true}');
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed[0]?.filename ?? '')],
    {
      cwd: app,
      env: npmEnv,
      stdio: 'ignore',
    },
  );
  const bin = join(app, 'node_modules', '.bin', 'tokencli');
  expect(existsSync(bin)).toBe(true);

  const version = execFileSync(bin, ['--version'], { env: cleanEnv(), encoding: 'utf8' });
  expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);

  const server = spawn(bin, ['serve', '--port', '0'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    if (!server.stdout) throw new Error('no stdout');
    const line = await new Promise<string>((res, rej) => {
      server.on('exit', (code) => rej(new Error(`serve exited ${code}`)));
      createInterface({ input: server.stdout as NodeJS.ReadableStream }).once('line', res);
    });
    const baseUrl = (JSON.parse(line) as { base_url: string }).base_url;
    const configDir = join(work, 'config');
    const token = execFileSync(bin, ['token'], {
      env: cleanEnv({
        TOKENCLI_BASE_URL: baseUrl,
        TOKENCLI_CLIENT_ID: DEMO.clientId,
        TOKENCLI_CLIENT_SECRET: DEMO.clientSecret,
        TOKENCLI_EMAIL: DEMO.email,
        TOKENCLI_PASSWORD: DEMO.password,
        TOKENCLI_STORE: 'file',
        TOKENCLI_CONFIG_DIR: configDir,
      }),
      encoding: 'utf8',
    });
    expect(token.trim().length).toBeGreaterThan(20);
    expect(readdirSync(configDir)).toContain('credentials.json');
  } finally {
    server.removeAllListeners('exit');
    server.kill('SIGTERM');
  }
});
