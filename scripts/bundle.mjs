// Bundles the CLI entry (and commander) into a few ESM files under dist/cli-bundle/, with one
// chunk per lazily imported command. Start-up is dominated by module resolution and commander's
// CommonJS loading; one pre-resolved ESM graph makes `tokencli token` from the cache markedly
// cheaper (see `npm run bench`). Heavy runtime dependencies stay external and load on demand.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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
      { filter: /^node:(fs|os|path|module|events|process|url|readline|net|child_process|timers\/promises)$/ },
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

const external = ['undici', 'undici/*', 'chalk', 'open', '@napi-rs/keyring', 'xml-crypto', '@xmldom/xmldom'];

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
 * The launcher's light path, each part as ONE file: light-argv (the command model and a small
 * parser over it, src/cli/light-argv.ts; also answers `--version`, so it stays tiny) and one
 * file per light answer it names (fast-token: a cached `tokencli token`; fast-exec: `exec`
 * with a cached token; fast-info, fast-status, fast-profile: `info`, `status`, `profile list|show`,
 * by their own run functions, src/cli/light-run.ts). One file each, whatever they share, because node's ESM loader pays about a
 * millisecond per module file, so the dozen shared chunks the split build would give them cost
 * more than the code in them (measured: ~15 ms against ~4 ms to import).
 * The same sources as the full CLI, compiled a second time; not a second implementation.
 */
await build({
  entryPoints: {
    'light-argv': 'src/cli/light-argv.ts',
    'fast-token': 'src/cli/fast-token.ts',
    'fast-exec': 'src/cli/fast-exec.ts',
    'fast-info': 'src/cli/fast-info.ts',
    'fast-status': 'src/cli/fast-status.ts',
    'fast-profile': 'src/cli/fast-profile.ts',
  },
  outdir: 'dist/cli-bundle',
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  packages: 'bundle',
  external,
  plugins: [builtinsWithoutFacadePlugin],
  logLevel: 'warning',
  legalComments: 'none',
});
