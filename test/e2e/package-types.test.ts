/**
 * TypeScript consumers find the package's types under every module resolution still in use:
 * `node16`/`nodenext` and `bundler` read the exports map; the legacy `node10` (TypeScript 5, and
 * 6 with ignoreDeprecations) reads only `types` and `typesVersions`, which maps `tokencli/server`.
 * TypeScript 7 (this project's) no longer has `node10`, so that case needs a TypeScript 5 `tsc`,
 * named by TOKENCLI_TEST_TSC5 (`.ci/run` installs one outside the clone); without it the case skips
 * locally and fails in CI. Uses the dist/ built by `pretest`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const root = resolve(import.meta.dirname, '../..');
// Each compiler's own script, run by this node: node_modules/.bin holds shell and .cmd wrappers.
const tsc7 = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const tsc5 = process.env.TOKENCLI_TEST_TSC5;
if (!tsc5 && process.env.CI)
  throw new Error('CI: TOKENCLI_TEST_TSC5 must name a TypeScript 5 tsc (.ci/run installs one)');

const consumer = [
  "import { getToken } from 'tokencli';",
  "import { startTokenService, type TokenServiceHandle } from 'tokencli/server';",
  'export async function demo(): Promise<string> {',
  '  const service: TokenServiceHandle = await startTokenService();',
  '  const { accessToken } = await getToken({ baseUrl: service.baseUrl, store: "none" });',
  '  await service.close();',
  '  return accessToken;',
  '}',
  '',
].join('\n');

/** A project whose node_modules/tokencli is this checkout, compiled with the given options. */
function compile(tsc: string, compilerOptions: Record<string, unknown>): { status: number; output: string } {
  const dir = tempDir('tokencli-types-');
  mkdirSync(join(dir, 'node_modules'));
  // A junction on Windows, which needs no privilege there; elsewhere the type is ignored.
  symlinkSync(root, join(dir, 'node_modules', 'tokencli'), 'junction');
  writeFileSync(join(dir, 'package.json'), '{"name":"consumer","private":true,"type":"module"}');
  writeFileSync(join(dir, 'consumer.ts'), consumer);
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      ...compilerOptions,
    },
    files: ['consumer.ts'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  try {
    const output = execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', stdio: 'pipe' });
    return { status: 0, output };
  } catch (error) {
    const { status, stdout } = error as { status: number | null; stdout: string };
    return { status: status ?? -1, output: stdout };
  }
}

test.each([
  ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
  ['node16', { module: 'node16', moduleResolution: 'node16' }],
  ['bundler', { module: 'preserve', moduleResolution: 'bundler' }],
])('moduleResolution %s resolves tokencli and tokencli/server', (_name, options) => {
  expect(compile(tsc7, options)).toEqual({ status: 0, output: '' });
});

test.skipIf(!tsc5)(
  'moduleResolution node10 (TypeScript 5) resolves tokencli/server through typesVersions',
  () => {
    expect(existsSync(tsc5 ?? '')).toBe(true);
    expect(compile(tsc5 ?? '', { module: 'commonjs', moduleResolution: 'node10' })).toEqual({
      status: 0,
      output: '',
    });
  },
);
