import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { VERSION } from '../src/version.js';
import { runCli } from './helpers/cli.js';

test('VERSION matches package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  expect(VERSION).toBe(pkg.version);
});

test('tokencli --version prints the version and exits 0', async () => {
  const r = await runCli(['--version']);
  expect(r).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
});

test('an unknown flag is a usage error (exit 2) naming the flag', async () => {
  const r = await runCli(['token', '--bogus']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("error: unknown option '--bogus'");
});

test('a secret given as a flag value is refused with exit 2', async () => {
  const r = await runCli(['token', '--password', 'hunter2']);
  expect(r.code).toBe(2);
  expect(r.stderr).not.toContain('hunter2');
});
