/**
 * Where the release build gets its Node 26 (scripts/release/node26.mjs): TOKENCLI_SEA_NODE must be
 * one; a cached install cut short (a node that is there but does not run) is installed again,
 * aside and renamed into place; an install that fails says what to do in one line. Asked what is
 * here already (installedSeaNode, for the tests that build an executable), it installs nothing. npm is a fake
 * here (npm_execpath, which the build's npm command follows), so nothing is downloaded.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { BuildFailure } from '../../scripts/release/failure.mjs';
import { installedSeaNode, nodePackage, SEA_NODE_MAJOR, seaNode } from '../../scripts/release/node26.mjs';
import { tempDir } from '../helpers/temp-dirs.js';

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['TOKENCLI_SEA_NODE', 'TOKENCLI_CI_CACHE', 'npm_execpath', 'FAKE_NPM_FAILS']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** A script that answers `--version` as a node would. */
function fakeNode(path: string, version: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
  return path;
}

/** npm's CLI script, faked: `install --prefix DIR PKG@26` writes a Node 26 there (or fails). */
function fakeNpm(): string {
  const cli = join(tempDir('tokencli-fake-npm-'), 'npm-cli.js');
  writeFileSync(
    cli,
    `const { mkdirSync, writeFileSync } = require('node:fs');
const args = process.argv.slice(2);
if (process.env.FAKE_NPM_FAILS) { console.error('npm error network unreachable'); process.exit(1); }
const prefix = args[args.indexOf('--prefix') + 1];
const pkg = args.at(-1).replace(/@[^@]*$/, '');
const bin = prefix + '/node_modules/' + pkg + '/bin';
mkdirSync(bin, { recursive: true });
writeFileSync(bin + '/node', '#!/bin/sh\\necho v${SEA_NODE_MAJOR}.9.9\\n', { mode: 0o755 });
`,
  );
  return cli;
}

/** An empty tool cache for the build, with npm faked: what the build would install goes there. */
function fakeCache(): string {
  const cache = tempDir('tokencli-ci-cache-');
  process.env.TOKENCLI_CI_CACHE = cache;
  process.env.npm_execpath = fakeNpm();
  return cache;
}

/** What an install killed half-way leaves in `cache`: the node's file is there, and is no program. */
function nodeCutShort(cache: string): string {
  const bin = join(cache, 'node26', 'node_modules', nodePackage(), 'bin', 'node');
  mkdirSync(join(bin, '..'), { recursive: true });
  writeFileSync(bin, '\x7fELF', { mode: 0o755 });
  return bin;
}

const posix = process.platform !== 'win32';

describe.skipIf(!posix)('the release build’s Node 26 (skipped on Windows: fake nodes are sh scripts)', () => {
  test('TOKENCLI_SEA_NODE that is not Node 26, or does not run, is refused in one line', () => {
    process.env.TOKENCLI_SEA_NODE = fakeNode(join(tempDir('tokencli-sea-node-'), 'node'), 'v25.0.0');
    expect(() => seaNode()).toThrow(
      new BuildFailure(`TOKENCLI_SEA_NODE=${process.env.TOKENCLI_SEA_NODE} is Node v25.0.0, not Node 26`),
    );
    process.env.TOKENCLI_SEA_NODE = '/nonexistent/node';
    expect(() => seaNode()).toThrow(/^TOKENCLI_SEA_NODE=\/nonexistent\/node does not run, not Node 26$/);
    const good = fakeNode(join(tempDir('tokencli-sea-node-'), 'node'), 'v26.1.0');
    process.env.TOKENCLI_SEA_NODE = good;
    expect(seaNode()).toBe(good);
  });

  // Under Node 26 the build uses the node that runs it, and looks at no cache.
  const onSeaNode = Number(process.versions.node.split('.')[0]) === SEA_NODE_MAJOR;
  test.skipIf(onSeaNode)(
    'a cached node cut short is installed again, aside and renamed into place (skipped on Node 26, which needs none)',
    () => {
      const cache = fakeCache();
      const bin = nodeCutShort(cache);
      expect(seaNode()).toBe(bin);
      expect(execFileSync(bin, ['--version'], { encoding: 'utf8' })).toBe(`v${SEA_NODE_MAJOR}.9.9\n`);
      expect(readdirSync(cache)).toEqual(['node26']);
      // Found whole the next time: not installed again, even with npm failing.
      process.env.FAKE_NPM_FAILS = '1';
      expect(seaNode()).toBe(bin);
    },
  );

  test.skipIf(onSeaNode)(
    'asked only what is here, nothing is installed: none, a node cut short, then a whole one (skipped on Node 26, which is its own)',
    () => {
      const cache = fakeCache();
      expect(installedSeaNode()).toBeUndefined();
      expect(readdirSync(cache)).toEqual([]);
      const bin = nodeCutShort(cache);
      expect(installedSeaNode()).toBeUndefined();
      fakeNode(bin, 'v26.1.0');
      expect(installedSeaNode()).toBe(bin);
      process.env.TOKENCLI_SEA_NODE = fakeNode(join(tempDir('tokencli-sea-node-'), 'node'), 'v25.0.0');
      expect(() => installedSeaNode()).toThrow(BuildFailure);
    },
  );

  test.skipIf(onSeaNode)(
    'an install that fails says what to do, and leaves no partial install (skipped on Node 26, which needs none)',
    () => {
      const cache = fakeCache();
      process.env.FAKE_NPM_FAILS = '1';
      expect(() => seaNode()).toThrow(
        `cannot install ${nodePackage()}@26 into ${join(cache, 'node26')} from the npm registry (above); run the build under Node 26, or set TOKENCLI_SEA_NODE to a Node 26 binary, or TOKENCLI_CI_CACHE to a directory it can be installed into`,
      );
      expect(existsSync(join(cache, 'node26'))).toBe(false);
      expect(readdirSync(cache)).toEqual([]);
    },
  );
});
