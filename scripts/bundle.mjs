// Bundles the CLI entry (and commander) into a few ESM files under dist/cli-bundle/, with one
// chunk per lazily imported command. Start-up is dominated by module resolution and commander's
// CommonJS loading; one pre-resolved ESM graph makes `tokencli token` from the cache markedly
// cheaper (see `npm run bench`). Heavy runtime dependencies stay external and load on demand.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { leaveOutHelpText } from './help-text.mjs';

const lazyChildProcess = fileURLToPath(new URL('./bundle-shims/lazy-child-process.cjs', import.meta.url));

/**
 * `import { x } from 'node:fs'` in ESM builds an ES module facade that reads every export, which
 * triggers node's lazy getters (fs.ReadStream loads the whole streams machinery): milliseconds on
 * every start. The bundle takes the CommonJS module from process.getBuiltinModule instead
 * (Node ≥ 20.16), so esbuild reads only the properties that are used, when they are used.
 */
const builtinsWithoutFacadePlugin = {
  name: 'builtins-without-esm-facade',
  setup(pluginBuild) {
    pluginBuild.onResolve(
      {
        filter:
          /^node:(fs|os|path|module|events|process|url|readline|net|child_process|timers|timers\/promises|util)$/,
      },
      (args) => ({
        path: args.path,
        namespace: 'builtin-cjs',
      }),
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'builtin-cjs' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/** Gives commander a lazily loaded node:child_process (see the shim for why). */
const lazyChildProcessPlugin = {
  name: 'lazy-child-process-for-commander',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: lazyChildProcess } : undefined,
    );
  },
};

/** The first line of each light bundle, before its build's hash: bin/tokencli.js reads it. */
const LIGHT_BUNDLE_HEADER = '// tokencli light bundle ';

const external = ['undici', 'undici/*', 'chalk', 'open', '@napi-rs/keyring', 'xml-crypto', '@xmldom/xmldom'];

// Every build starts empty: chunks are named by their hash, and bundles a change renamed would
// otherwise linger beside the new ones.
rmSync('dist/cli-bundle', { recursive: true, force: true });

// The full CLI's chunks are esbuild's own choice: each command's run function is an `import()` in
// its definition (src/cli/commands/token/token-command.ts, …), so it becomes a chunk, and modules
// shared by several become shared chunks. No source module exists to steer that: re-exporting the
// store and settings modules through src/cli/deps.ts, as once done for the cached `token` that
// now never reaches this build, changed no run's count of loaded files (`--help` loads 25,
// `profile use` 30, a `token` that renews 49). Every measured start-up path is a light bundle.
await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli-bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  packages: 'bundle',
  external,
  plugins: [lazyChildProcessPlugin, builtinsWithoutFacadePlugin],
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  legalComments: 'none',
  // commander is CommonJS and requires node builtins; give the ESM output a real `require`.
  banner: {
    js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);",
  },
});

/**
 * The full CLI's first line names its build (a hash of every file the build above wrote): the
 * launcher keeps node's compile cache of each build in a directory of its own, so that another
 * build's entries, whose chunks have other names, can go (bin/tokencli.js, FULL_CLI_HEADER).
 */
const FULL_CLI_HEADER = '// tokencli build ';
{
  const files = readdirSync('dist/cli-bundle', { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).replaceAll('\\', '/'))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\n`).update(readFileSync(file));
  const main = 'dist/cli-bundle/main.js';
  writeFileSync(
    main,
    `${FULL_CLI_HEADER}${hash.digest('base64url').slice(0, 16)}\n${readFileSync(main, 'utf8')}`,
  );
}

/**
 * The launcher's light path, each part as ONE file: light-argv (the command model and a small
 * parser over it, src/cli/launcher/light-argv.ts; also answers `--version`, so it stays tiny) and
 * one file per light answer a command's definition names (CommandDef.light: light-token, a cached
 * `tokencli token`; light-exec, `exec` with a cached token; light-info, light-status,
 * light-profile: `info`, `status`, `profile list|show`, by their own run functions,
 * src/cli/launcher/run-light.ts). The list is read from the definitions as tsc built them (`npm
 * run build` runs tsc first), so a command's light answer is named in its definition alone. One
 * more is loaded by the others on demand: light-keychain, the keychain's client (below). The
 * same sources as the full CLI, compiled a second time; not a second implementation.
 *
 * One file each, whatever they share, because node's ESM loader pays about a millisecond per
 * module file. And not ES modules at all: each is a CommonJS-shaped script that the launcher
 * compiles itself with node:vm, so that it can keep V8's code cache of it between runs on every
 * Node line (bin/tokencli.js says why; Node 20 has no module compile cache). The launcher gives
 * each script four names: `exports`, `module`, `require` (node's builtins only, which it takes
 * straight from process.getBuiltinModule when first used: no ES module facade, no property
 * copying) and
 * `__import` (a dynamic import made from the launcher, for the packages loaded on demand: a
 * script compiled by node:vm cannot import by itself without an experimental flag).
 * The first line names the build (a hash of the rest), which keys the code cache; the second
 * makes the body strict, as the ES modules they come from.
 */
const { lightAnswers } = await import('../dist/cli/launcher/light-argv.js');
const lightBundles = ['light-argv', ...new Set(lightAnswers().values())];

/**
 * A command's definition (src/cli/commands/token/token-command.ts, …) refers to its run function
 * by an `import()`, which the full CLI's build above turns into that command's chunk. The light
 * bundles never call it: light-argv only reads the definitions, and a light answer that runs a
 * command imports its run function itself. Bundled, it would pull every command into each of
 * them (light-argv would carry the whole CLI), so it is left out.
 */
const runFunctionsLeftOutPlugin = {
  name: 'run-functions-left-out-of-light-bundles',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' &&
      /[\\/]commands[\\/][^\\/]+[\\/][^\\/]+-command\.ts$/.test(args.importer)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/**
 * The keychain's client (src/cli/launcher/light-keychain.ts), a light bundle the others import on
 * demand: open-store.ts's `import()`s of its modules become `__import("tokencli:light-keychain")`,
 * which the launcher answers with that bundle (bin/tokencli.js). The answers that never open the
 * keychain, a cached token from the credentials file first, then carry none of its code. The error
 * it throws is its own copy of TokencliError, which `instanceof` still knows (src/errors.ts).
 */
const KEYCHAIN_BUNDLE = 'light-keychain';
const keychainImportedOnDemandPlugin = {
  name: 'keychain-imported-on-demand',
  setup(pluginBuild) {
    pluginBuild.onResolve(
      {
        filter:
          /^\.\/(secret-service-probe|secret-service-entries|keychain-store|native-keychain-entries)\.js$/,
      },
      (args) =>
        args.kind === 'dynamic-import' && /[\\/]store[\\/]open-store\.ts$/.test(args.importer)
          ? { path: `tokencli:${KEYCHAIN_BUNDLE}`, external: true }
          : undefined,
    );
  },
};

const lightOptions = {
  outdir: 'dist/cli-bundle',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  splitting: false,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  packages: 'bundle',
  external,
  logLevel: 'warning',
  legalComments: 'none',
  write: false,
};
const entry = (name) => [name, `src/cli/launcher/${name}.ts`];
const builds = await Promise.all([
  build({
    ...lightOptions,
    entryPoints: Object.fromEntries(lightBundles.map(entry)),
    plugins: [runFunctionsLeftOutPlugin, keychainImportedOnDemandPlugin],
  }),
  build({ ...lightOptions, entryPoints: Object.fromEntries([entry(KEYCHAIN_BUNDLE)]) }),
]);
if (builds.some((light) => light.warnings.length > 0))
  throw new Error('the light bundles must build without warnings');
for (const output of builds.flatMap((light) => light.outputFiles)) {
  const name = basename(output.path);
  // The argv reader's command model without its help text (scripts/help-text.mjs says why).
  const text = name === 'light-argv.cjs' ? leaveOutHelpText(output.text, name).code : output.text;
  // esbuild prints every dynamic import it leaves (external packages, builtins) as `import("…")`.
  let code = text.replaceAll('import("', '__import("');
  if (/\bimport\s*\(/.test(code)) throw new Error(`${name}: a dynamic import esbuild left in another form`);
  for (const [, id] of code.matchAll(/\brequire\("([^"]*)"\)/g)) {
    if (!id.startsWith('node:')) throw new Error(`${name}: require("${id}") is not a node: builtin`);
  }
  if (/\brequire\s*\((?!")/.test(code)) throw new Error(`${name}: require() of a computed name`);
  // The launcher's builtins are loaded on first use (bin/tokencli.js): reading their properties
  // works, copying them (a default or namespace import of a builtin) would find none.
  if (code.includes('__toESM(')) throw new Error(`${name}: a default or namespace import of a builtin`);
  // ASCII only (esbuild escapes strings already; this reaches the comments it keeps): a single
  // character beyond makes node read the whole file into a two-byte string, twice as slow to read.
  code = code.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // Strict mode, as the ES modules they come from: the launcher runs each as a function's body.
  code = `"use strict";\n${code.replace(/^"use strict";\n/, '')}`;
  const hash = createHash('sha256').update(code).digest('base64url').slice(0, 16);
  writeFileSync(output.path, `${LIGHT_BUNDLE_HEADER}${hash}\n${code}`);
}
