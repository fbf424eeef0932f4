/**
 * Builds the single executable `tokencli` (tokencli.exe on Windows) with Node 26's `--build-sea`:
 * node itself with bin/tokencli.js (the same launcher as the npm package) as its main script and,
 * as assets, everything the launcher would read from dist/cli-bundle/:
 *
 * - the light bundles, exactly as `npm run build` wrote them (scripts/bundle.mjs): the launcher
 *   compiles them with node:vm and keeps V8's code cache in the user's cache directory, as it
 *   does from the package;
 * - main.cjs: the full CLI as ONE CommonJS script (src/cli/main.ts), compiled the same way —
 *   the ES module chunks of dist/ cannot be imported from inside the executable;
 * - sea-imports.cjs: the packages the bundles import on demand (undici, chalk, open, xml-crypto,
 *   @xmldom/xmldom), bundled, and the loader of the keychain's native addon (src/sea/);
 * - keyring.node, on macOS and Windows: that platform's `@napi-rs/keyring` addon (Linux's
 *   keychain needs none);
 * - NAME.code-cache: V8's code cache of each of those scripts, made by running the executable
 *   once built (train-code-cache.mjs), which is then built again with them.
 *
 * build-sea.mjs runs it for the release; test/e2e/executable-keyring-addon.test.ts builds a test
 * executable with it whose main.cjs reaches the addon on Linux too.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { BuildFailure } from './failure.mjs';
import { runChild } from './interruptible.mjs';
import { seaNode } from './node26.mjs';
import { withTrainedCodeCaches } from './train-code-cache.mjs';

const root = resolve(import.meta.dirname, '../..');

/** The launcher reads this first line (the build's hash keys the code cache), as in scripts/bundle.mjs. */
const HEADER = '// tokencli light bundle ';

/** The platforms whose keychain is `@napi-rs/keyring` (src/store/open-store.ts). */
const KEYRING_ADDON_PLATFORMS = new Set(['darwin', 'win32']);

/**
 * One CommonJS script the launcher can compile (bin/tokencli.js, loadLight), written into
 * `assetsDir`: what esbuild left as `import("…")` goes through the launcher's `__import`; ASCII
 * only and strict, as the light bundles.
 */
async function script(assetsDir, entry, name, external, minify = false) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node26',
    external,
    logLevel: 'warning',
    legalComments: 'none',
    // The packages' JSDoc mentions `import('…')` types; minified, only code is left. Names are
    // kept, so that errors and stack traces name what they name from the npm package.
    minify,
    keepNames: minify,
    write: false,
  });
  let code = result.outputFiles[0].text.replaceAll('import("', '__import("');
  if (/\bimport\s*\(/.test(code)) throw new Error(`${name}: a dynamic import esbuild left in another form`);
  code = code.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  code = `"use strict";\n${code.replace(/^"use strict";\n/, '')}`;
  const hash = createHash('sha256').update(code).digest('base64url').slice(0, 16);
  const path = join(assetsDir, `${name}.cjs`);
  writeFileSync(path, `${HEADER}${hash}\n${code}`);
  return path;
}

/** This platform's @napi-rs/keyring addon (its optional dependency, installed by npm for this platform). */
export function keyringAddon() {
  const require = createRequire(join(root, 'package.json'));
  const keyringDir = dirname(require.resolve('@napi-rs/keyring/package.json'));
  const suffix = {
    linux: `linux-${process.arch}-gnu`,
    darwin: `darwin-${process.arch}`,
    win32: `win32-${process.arch}-msvc`,
  }[process.platform];
  const pkgDir = dirname(
    createRequire(join(keyringDir, 'package.json')).resolve(`@napi-rs/keyring-${suffix}/package.json`),
  );
  const file = readdirSync(pkgDir).find((n) => n.endsWith('.node'));
  if (!file) throw new Error(`no .node file in ${pkgDir}`);
  return join(pkgDir, file);
}

/**
 * The npm registry's Linux node carries debug information and symbols (150 MB, 49 MB gzipped); without
 * them the executable is 116 MB and its archive under the 45 MB goal. The copy is what gets embedded
 * (and runs the build: `--build-sea` copies the node that runs it unless told otherwise).
 */
function strippedNode(node, out) {
  if (process.platform !== 'linux') return node;
  const copy = join(out, 'node');
  copyFileSync(node, copy);
  try {
    execFileSync('strip', [copy], { stdio: ['ignore', 'ignore', 'inherit'] }); // .dynsym stays: addons link against it
  } catch (error) {
    if (error.code === 'ENOENT')
      throw new BuildFailure('strip is not installed (binutils: apt-get install binutils)');
    throw new BuildFailure(`strip ${copy} failed (above)`);
  }
  return copy;
}

/**
 * Builds the executable in `out` (emptied first; only the executable is left in it) and returns its
 * path. Run after `npm run build` (build-sea.mjs checks that first: built.mjs).
 *
 * @param {object} options
 * @param {string} options.out the directory
 * @param {boolean} [options.codeCaches] false builds without any code cache of the executable's
 *   own (TOKENCLI_SEA_CODE_CACHE=0, to measure them; a test executable)
 * @param {boolean} [options.keyringAddon] whether the addon is carried (default: where the keychain
 *   is `@napi-rs/keyring`)
 * @param {string} [options.mainEntry] the module bundled as main.cjs instead of the full CLI's
 *   (src/cli/main.ts), for a test executable: the launcher calls its `main(args)` for every command
 *   that is not a light answer
 */
export async function buildSeaExecutable(options) {
  const {
    out,
    codeCaches = true,
    keyringAddon: withAddon = KEYRING_ADDON_PLATFORMS.has(process.platform),
  } = options;
  const assetsDir = join(out, 'assets');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(assetsDir, { recursive: true });

  const packages = ['undici', 'chalk', 'open', 'xml-crypto', '@xmldom/xmldom', '@napi-rs/keyring'];
  const assets = {
    'main.cjs': await script(assetsDir, options.mainEntry ?? join(root, 'src/cli/main.ts'), 'main', packages),
    'sea-imports.cjs': await script(
      assetsDir,
      join(root, 'src/sea/imports.ts'),
      'sea-imports',
      ['@napi-rs/keyring'],
      true,
    ),
  };
  const bundles = join(root, 'dist', 'cli-bundle');
  for (const name of readdirSync(bundles).filter((n) => n.endsWith('.cjs')))
    assets[name] = join(bundles, name);
  // Linux and the BSDs reach the Secret Service over D-Bus in JavaScript (src/store/open-store.ts):
  // their executable carries no native code of ours.
  if (withAddon) assets['keyring.node'] = keyringAddon();

  const exe = join(out, process.platform === 'win32' ? 'tokencli.exe' : 'tokencli');
  const node = strippedNode(seaNode(), out);

  /** Writes the executable with these assets; `signal` (interruptible.mjs) stops it. */
  async function buildExecutable(withAssets, signal) {
    const config = {
      // Relative to the checkout (the build runs there): node keeps this name in the executable, for
      // its stack traces, and the build machine's own path is no business of the executable's.
      main: 'bin/tokencli.js',
      mainFormat: 'commonjs',
      executable: node,
      output: exe,
      disableExperimentalSEAWarning: true,
      // The launcher's own compile, cached in the executable. No start-up snapshot: on Node 26.10 an
      // executable started from one (useSnapshot) took 8 to 9 ms longer to print a line than one
      // started from its code cache, more than the whole of the launcher's work (bench/README.md).
      useCodeCache: codeCaches,
      useSnapshot: false,
      // The executable is tokencli, not node: NODE_OPTIONS and node's flags are not its business.
      execArgvExtension: 'none',
      assets: withAssets,
    };
    const configPath = join(out, 'sea-config.json');
    writeFileSync(configPath, JSON.stringify(config, null, 2));
    await runChild(node, ['--build-sea', configPath], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      signal,
    });
    // macOS runs no binary whose signature does not match it, and the blob broke node's: signed anew
    // (ad hoc; a Developer ID signature and notarization would be the release's next step).
    if (process.platform === 'darwin')
      await runChild('codesign', ['--sign', '-', '--force', exe], { signal });
  }

  await buildExecutable(assets);
  if (codeCaches) {
    // Built twice: the first executable runs the light answers to make the code caches the second
    // one carries (train-code-cache.mjs says why).
    // In the system's temporary directory, not the checkout's (train-code-cache.mjs says why).
    await withTrainedCodeCaches(exe, async (caches, signal) => {
      for (const name of Object.keys(assets).filter((n) => n.endsWith('.cjs'))) {
        const bundle = name.slice(0, -'.cjs'.length);
        // Every light answer and the full CLI must have been run; sea-imports only if a run needed it,
        // and the keychain's client never (the training has no Secret Service: its runs use the file).
        if (!caches[bundle] && bundle !== 'sea-imports' && bundle !== 'light-keychain')
          throw new BuildFailure(`training the code caches, the executable made none of ${bundle}`);
      }
      const withCaches = { ...assets };
      for (const [bundle, path] of Object.entries(caches)) {
        if (!assets[`${bundle}.cjs`])
          throw new Error(`build-sea: a code cache of ${bundle}, which is no bundle`);
        withCaches[`${bundle}.code-cache`] = path;
      }
      await buildExecutable(withCaches, signal);
    });
  }
  rmSync(assetsDir, { recursive: true, force: true });
  rmSync(join(out, 'node'), { force: true });
  rmSync(join(out, 'sea-config.json'), { force: true });
  return exe;
}
