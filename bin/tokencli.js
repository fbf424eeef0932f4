#!/usr/bin/env node
// The launcher. It reads argv against the command model (dist/cli-bundle/light-argv.cjs, without
// commander): `--version` and the commands with a light answer (src/cli/light-argv.ts lists them:
// `token` and `exec` from the cache, `info`, `status`, `profile list|show`) are answered here when
// they can be; everything else — help, errors, unknown flags, anything that may prompt or renew —
// and any light answer that declines goes to the full CLI, the bundled entry (scripts/bundle.mjs
// says why), which decides every message.
//
// It is CommonJS (bin/package.json says so): node starts a CommonJS script without its ES module
// loader, about 5 ms sooner than an ES module (bench/README.md), and nothing on the light path
// needs that loader; the full CLI and the packages loaded on demand are imported as ES modules.
//
// The light bundles are compiled here, with node:vm, so that V8's code cache of each (its bytecode,
// including every function the run compiled) can be kept between runs in the user's cache
// directory: compiling them is most of what these commands cost beyond node's own start, and
// Node 20 has no compile cache of its own. Measured, this also beats Node ≥ 22's module compile
// cache (bench/README.md), which is kept for the full CLI only. V8 checks a cache against its own
// version and flags and the source's length; the cache file is named after the bundle's build
// (a hash on its first line), so a cache never meets other code. A cache that V8 rejects, or none,
// only costs the compile: it is written anew once the answer is out.
const fs = process.getBuiltinModule('node:fs');
const { join, isAbsolute, sep } = process.getBuiltinModule('node:path');
const env = process.env;
const bundles = join(__dirname, '..', 'dist', 'cli-bundle');

/**
 * The user's cache directory (XDG / macOS / Windows), or undefined: without a home directory, or
 * when it is under TMPDIR — a home there is a throw-away one (a test run, a sandbox), where a
 * cache only leaves files behind.
 */
function userCacheDir() {
  const home = env.HOME || env.USERPROFILE;
  const base =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : process.platform === 'win32' && env.LOCALAPPDATA
        ? env.LOCALAPPDATA
        : home && (process.platform === 'darwin' ? join(home, 'Library', 'Caches') : join(home, '.cache'));
  const tmp = temporaryDir();
  return base && base !== tmp && !base.startsWith(tmp + sep) ? join(base, 'tokencli') : undefined;
}

/** os.tmpdir(), without loading node:os on POSIX (a third of a millisecond): the same variables, in its order. */
function temporaryDir() {
  if (process.platform === 'win32') return process.getBuiltinModule('node:os').tmpdir();
  const dir = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

const cacheRoot = userCacheDir();
// V8 rejects a cache of another V8; one directory per node keeps two nodes from overwriting each other's.
const codeCacheDir = cacheRoot && join(cacheRoot, 'code-cache', `${process.version}-${process.arch}`);
const HEADER = '// tokencli light bundle ';
/** Scripts compiled without an accepted cache, to be cached once the answer is out. */
const uncached = [];

/**
 * node's builtin module `id`, loaded when a property is first read: a bundle requires at its top
 * every builtin any of its code may use (node:os, for one, costs a third of a millisecond to load
 * and is needed only when HOME is not set). The bundles only ever read properties of a builtin
 * (scripts/bundle.mjs checks that esbuild copied none).
 */
function lazyBuiltin(id) {
  let loaded;
  return new Proxy(
    {},
    {
      get(_, key) {
        loaded ??= process.getBuiltinModule(id);
        return loaded[key];
      },
    },
  );
}

/** Runs dist/cli-bundle/NAME.cjs (a light bundle, scripts/bundle.mjs) and returns its exports. */
function loadLight(name) {
  const vm = process.getBuiltinModule('node:vm');
  const filename = join(bundles, `${name}.cjs`);
  const source = fs.readFileSync(filename, 'utf8');
  const build = source.startsWith(HEADER) ? source.slice(HEADER.length, source.indexOf('\n')) : undefined;
  const cacheFile = codeCacheDir && build && join(codeCacheDir, `${name}-${build}`);
  let cachedData;
  try {
    if (cacheFile) cachedData = fs.readFileSync(cacheFile);
  } catch {
    // None yet.
  }
  // The wrapper stays on the source's first line (a comment), so line numbers in stacks are the file's.
  const script = new vm.Script(`(function (exports, require, module, __import) {${source}\n})`, {
    filename,
    cachedData,
  });
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected))
    uncached.push({ script, name, cacheFile });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, lazyBuiltin, module, (id) => import(id));
  return module.exports;
}

/**
 * Writes the code caches of this run's uncached scripts (those `keep` accepts); failing only costs
 * the next run speed.
 */
function saveCodeCaches(keep = () => true) {
  for (const { script, name, cacheFile } of uncached.splice(0)) {
    if (!keep(name)) continue;
    try {
      fs.mkdirSync(codeCacheDir, { recursive: true, mode: 0o700 });
      // Written aside and renamed: a run reading it meanwhile sees the old file or the new, whole.
      // A name of its own, created afresh ('wx'): two writers never share a partial file.
      const partial = `${cacheFile}.${process.pid}-${Math.random().toString(36).slice(2)}.partial`;
      fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600, flag: 'wx' });
      fs.renameSync(partial, cacheFile);
      // Other builds' caches of this bundle (and partial files of killed writers) are of no use now.
      const current = cacheFile.slice(codeCacheDir.length + 1);
      for (const entry of fs.readdirSync(codeCacheDir)) {
        if (entry.startsWith(`${name}-`) && entry !== current)
          fs.rmSync(join(codeCacheDir, entry), { force: true });
      }
    } catch {
      // A cache that cannot be written only costs speed.
    }
  }
}

/** Answers lightly when it can, or runs the full CLI; an error it throws is a crash, as in any script. */
async function launch() {
  const args = process.argv.slice(2);
  const plan = loadLight('light-argv').lightPlan(args);
  if (plan?.kind === 'version') {
    try {
      // Straight to the descriptor: building process.stdout costs more than the rest of this run.
      fs.writeSync(1, `${plan.version}\n`);
    } catch {
      process.stdout.write(`${plan.version}\n`);
    }
    saveCodeCaches();
  } else {
    // A light answer (dist/cli-bundle/<plan.module>.cjs): an exit code, or false to decline.
    const code = plan ? await loadLight(plan.module).answer(plan) : false;
    // A cache holds the functions its run compiled, and is kept as long as V8 accepts it: one of an
    // answer that declined after its first steps would leave the rest of every answer uncached.
    saveCodeCaches((name) => code !== false || name === 'light-argv');
    if (code !== false) {
      // Answered. On Linux every write to stdout/stderr (file, pipe, terminal) is synchronous, so
      // nothing is pending: leaving now skips tearing down the keychain's native D-Bus client,
      // which costs tens of milliseconds after the work is done (bench/keychain.mjs).
      if (process.platform === 'linux') process.exit(code);
      process.exitCode = code;
    } else {
      // Node ≥ 22 keeps the full CLI's compiled modules in its own compile cache, beside ours.
      const { enableCompileCache } = process.getBuiltinModule('node:module');
      if (enableCompileCache && cacheRoot) {
        try {
          // Private like ours: node makes its own directories inside world-readable.
          const dir = join(cacheRoot, 'compile-cache');
          fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
          enableCompileCache(dir);
        } catch {
          // A cache that cannot be made only costs speed.
        }
      }
      const { main } = await import('../dist/cli-bundle/main.js');
      process.exitCode = await main(args);
    }
  }
}

void launch();
