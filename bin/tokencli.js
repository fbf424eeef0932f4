#!/usr/bin/env node
// The launcher. It reads argv against the command model (dist/cli-bundle/light-argv.cjs, without
// commander): `--version` and the commands whose definition names a light answer (src/cli/launcher/light-argv.ts reads them:
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
// only costs the compile: it is written anew once the answer is out, as is one whose run took a
// path it had not seen (see CACHE_MAGIC).
//
// The functions every light run calls are written `const f = (function f() {...})`, inner ones
// too: V8 compiles a parenthesised function with the script rather than on its first call, so the
// executable's own code cache of this script (useCodeCache, scripts/release/sea-executable.mjs), made
// before it runs, holds them too; declared plainly, each was compiled from source on every run of
// the executable (about 1 ms of its 5 ms of work on a cached token, measured). The formatter drops
// such parentheses, hence its `biome-ignore format` comments; test/cli/launcher/eager-compile.test.ts
// fails on a function compiled when first called. From the package it changes nothing measurable.
const fs = process.getBuiltinModule('node:fs');
const { dirname, join, isAbsolute, resolve, sep } = process.getBuiltinModule('node:path');
const env = process.env;
const bundles = join(__dirname, '..', 'dist', 'cli-bundle');
// Inside the single executable (scripts/release/sea-executable.mjs) this script is the executable's
// main, whose __filename is the executable: there the bundles are its assets, not files beside
// bin/, and the full CLI is a CommonJS bundle compiled like the light ones.
const sea = __filename === process.execPath ? process.getBuiltinModule('node:sea') : undefined;

/**
 * The user's cache directory (XDG / macOS / Windows), or undefined: without a home directory, or
 * when it is under TMPDIR — a home there is a throw-away one (a test run, a sandbox), where a
 * cache only leaves files behind.
 *
 * One path.join, and the paths below it made by appending names: each join walks its path a
 * character at a time in node's own JavaScript, and a few hundred characters more made V8 optimize
 * that code (Maglev: node:path's normalizeString and isPosixPathSeparator, `--trace-opt` shows it)
 * in the executable's cached `token`, 0.4–0.7 M instructions on the main thread and a compile on
 * another core, thrown away at exit (bench/README.md, Decisions).
 */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const userCacheDir = (function userCacheDir() {
  const home = env.HOME || env.USERPROFILE;
  const base =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : process.platform === 'win32' && env.LOCALAPPDATA
        ? env.LOCALAPPDATA
        : home && (process.platform === 'darwin' ? `${home}/Library/Caches` : `${home}/.cache`);
  const tmp = temporaryDir();
  return base && base !== tmp && !base.startsWith(tmp + sep) ? join(base, 'tokencli') : undefined;
});

/** os.tmpdir(), without loading node:os on POSIX (a third of a millisecond): the same variables, in its order. */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const temporaryDir = (function temporaryDir() {
  if (process.platform === 'win32') return process.getBuiltinModule('node:os').tmpdir();
  const dir = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
});

const cacheRoot = userCacheDir();
// V8 rejects a cache of another V8; one directory per node keeps two nodes from overwriting each other's.
const CODE_CACHE_DIR = `code-cache${sep}${process.version}-${process.arch}`;
const codeCacheDir = cacheRoot && `${cacheRoot}${sep}${CODE_CACHE_DIR}`;
const HEADER = '// tokencli light bundle ';
/** The light scripts this run compiled, whose caches are brought up to date once the answer is out. */
const loaded = [];

/**
 * A bundle's `require`: node's builtin module `id`, loaded when a property is first read. A bundle
 * requires at its top every builtin any of its code may use (node:os, for one, costs a third of a
 * millisecond to load and is needed only when HOME is not set). The bundles only ever read
 * properties of a builtin (scripts/bundle.mjs checks that esbuild copied none). The builtins read
 * go into `used`: they tell which of the bundle's paths the run took (below).
 */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const lazyRequire = (function lazyRequire(used) {
  return (function require(id) {
    let loaded;
    return new Proxy(
      {},
      {
        get: (function get(_, key) {
          if (loaded === undefined) {
            loaded = process.getBuiltinModule(id);
            used.add(id);
          }
          return loaded[key];
        }),
      },
    );
  });
});

/** This user, the owner cached code must have (POSIX; Windows has no such owner or modes to check). */
const ownUid = process.platform === 'win32' ? undefined : process.getuid();

/** Whether a file or directory is this user's and no one else may write it. */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const ownedAlone = (function ownedAlone(stat) {
  return ownUid === undefined || (stat.uid === ownUid && (stat.mode & 0o022) === 0);
});

/**
 * Whether one step of a path (lstat) is this user's or root's: a link, or a directory no one else
 * may write unless sticky (/tmp, a shared XDG_CACHE_HOME: no one else may move or replace what is
 * ours in it).
 */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const safeStep = (function safeStep(stat) {
  if (stat.uid !== ownUid && stat.uid !== 0) return false;
  if (stat.isSymbolicLink()) return true;
  return stat.isDirectory() && ((stat.mode & 0o022) === 0 || (stat.mode & 0o1000) !== 0);
});

/** Whether `path` is a directory (not a link) of this user's that no one else may write. */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const ownDirectory = (function ownDirectory(path) {
  const stat = fs.lstatSync(path);
  return stat.isDirectory() && ownedAlone(stat);
});

let cacheDirReadable;
/**
 * Whether the code cache files in codeCacheDir may be read. A file there is used only when it is
 * the user's alone (readOwnCacheFile), but the user owns files whose contents others chose (a
 * checkout, a download), and a link or a directory of another user's on the way, in a shared
 * cache home, could lead to one: V8 would run its bytecode. So cacheRoot's parent must be a safe
 * step, and cacheRoot, code-cache and this node's directory real directories of the user's alone:
 * four lstat calls, once a run, and only where there is a cache file to read. Further up is left
 * to the writes' check (trustedCacheRoot): a directory there that others may write without a
 * sticky bit is the user's own misconfiguration. Windows has no owners or modes to check.
 */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const readableCacheDir = (function readableCacheDir() {
  if (cacheDirReadable === undefined) {
    cacheDirReadable = false;
    try {
      cacheDirReadable =
        ownUid === undefined ||
        (safeStep(fs.lstatSync(dirname(cacheRoot))) &&
          ownDirectory(cacheRoot) &&
          ownDirectory(`${cacheRoot}${sep}code-cache`) &&
          ownDirectory(codeCacheDir));
    } catch {
      // Gone meanwhile: nothing read.
    }
  }
  return cacheDirReadable;
});

let trustedRoot;
/**
 * cacheRoot's real path, made if missing, where what a run writes may be trusted by later runs —
 * code that V8 or node runs, the executable's native addon, and the clean-ups that remove other
 * builds' directories — or undefined. Reading a cache asks less (readableCacheDir); writing there
 * asks more: another user who can write a directory on the way could swap in one of theirs
 * between a check and its use, or plant a link that makes a clean-up remove directories
 * elsewhere. So cacheRoot must be this user's alone, and each step above it a safe one (safeStep),
 * on the path as given and on its real path: a link on the way must be the user's or root's, for
 * a link another user put in a sticky directory would lead to a directory of the user's they
 * chose. A `sudo` run that kept the user's HOME finds the user's directories on the way, and
 * writes nothing there: root's files would be ones the user's later runs could never replace.
 * Windows has no owners or modes to check.
 */
function trustedCacheRoot() {
  if (trustedRoot !== undefined) return trustedRoot || undefined;
  trustedRoot = false;
  if (!cacheRoot) return undefined;
  try {
    if (ownUid === undefined) {
      fs.mkdirSync(cacheRoot, { recursive: true, mode: 0o700 });
      trustedRoot = cacheRoot;
    } else {
      // Nothing is made where it could not be kept: the nearest directory there is comes first,
      // then each missing one, made alone and checked before the next is made in it, so that none
      // is made through a link another user put there meanwhile.
      let existing = resolve(cacheRoot);
      const missing = [];
      while (!fs.existsSync(existing)) {
        missing.unshift(existing);
        existing = dirname(existing);
      }
      if (!safeAncestry(existing) || !safeAncestry(fs.realpathSync(existing))) return undefined;
      for (const dir of missing) {
        try {
          fs.mkdirSync(dir, { mode: 0o700 });
        } catch (error) {
          if (error.code !== 'EEXIST') throw error;
        }
        if (!safeStep(fs.lstatSync(dir))) return undefined;
      }
      const real = fs.realpathSync(cacheRoot);
      if (safeAncestry(resolve(cacheRoot)) && safeAncestry(real) && ownedAlone(fs.lstatSync(real)))
        trustedRoot = real;
    }
  } catch {
    // Not made, or gone meanwhile: nothing is written.
  }
  return trustedRoot || undefined;
}

/**
 * Whether `dir` (absolute) and each step above it is this user's or root's: a link, or a directory
 * writable by no one else unless sticky.
 */
function safeAncestry(dir) {
  for (let path = dir; ; path = dirname(path)) {
    if (!safeStep(fs.lstatSync(path))) return false;
    if (dirname(path) === path) return true;
  }
}

/**
 * A code cache file's bytes, when this user wrote it and no one else can have: V8 runs the
 * bytecode in it after checking only its own version and flags and the source's length, so a
 * file another user wrote or could rewrite (an XDG_CACHE_HOME open to others) would be code run
 * with the user's secrets at hand. Read through one descriptor, so the file checked is the file
 * read; opened without waiting (a FIFO put there would hold the open, and every run, forever) and
 * not through a link, and read only when it is a regular file. Windows has neither flag.
 */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const readOwnCacheFile = (function readOwnCacheFile(path) {
  const { O_RDONLY, O_NONBLOCK = 0, O_NOFOLLOW = 0 } = fs.constants;
  const fd = fs.openSync(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
  try {
    const stat = fs.fstatSync(fd);
    return stat.isFile() && ownedAlone(stat) ? fs.readFileSync(fd) : undefined;
  } finally {
    fs.closeSync(fd);
  }
});

/**
 * A cache file is this line, the builtins its runs used (the paths it has seen), then V8's data.
 * V8's cache holds the functions compiled when it was made, so one made by a run that read a
 * credentials file lacks the keychain's D-Bus client, which a keychain run would then compile
 * every time. A run whose builtins the line does not list took another path (the D-Bus client
 * reads node:timers, and node:net without node's pipe handle): the cache is made again, with its
 * functions added. Only builtins read through a bundle's `require` count; those taken with
 * process.getBuiltinModule (node:http) do not.
 */
const CACHE_MAGIC = 'tokencli code cache 1:';
/** Other builds' code caches kept beside this build's, of each bundle (see saveCodeCaches). */
const KEPT_BUILDS = 2;
/**
 * Other nodes' code-cache directories kept, the last written, when a node makes its own: the four
 * lines tokencli runs on, one of them perhaps the executable's.
 */
const KEPT_NODES = 3;

/**
 * Removes each of `others` ({ path, written }: other builds' or other nodes' caches, files or
 * directories; inside the executable also other releases' native addons, src/sea/native-addon.ts)
 * but the `kept` written last, so that copies in use side by side stay and upgrades pile nothing
 * up. One that cannot be removed (a DLL still loaded, on Windows) is left until a later write of
 * the same kind prunes again.
 */
function removeAllButLatest(others, kept) {
  for (const other of others) {
    let later = 0;
    for (const another of others) if (another.written > other.written) later++;
    if (later < kept) continue;
    try {
      fs.rmSync(other.path, { recursive: true, force: true });
    } catch {
      // Left for a later prune.
    }
  }
}

/** The directories in `dir` but `current`, with when each was last written. */
function otherDirectories(dir, current) {
  const others = [];
  for (const entry of fs.readdirSync(dir)) {
    if (entry === current) continue;
    const path = `${dir}${sep}${entry}`;
    const stat = fs.lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) others.push({ path, written: stat.mtimeMs });
  }
  return others;
}

/** The paths a cache file has seen and V8's data, or undefined for a file not in this format. */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const parseCacheFile = (function parseCacheFile(bytes) {
  const end = bytes.indexOf(10);
  if (end === -1 || bytes.toString('latin1', 0, CACHE_MAGIC.length) !== CACHE_MAGIC) return undefined;
  const list = bytes.toString('latin1', CACHE_MAGIC.length, end);
  return { seen: list === '' ? [] : list.split(','), data: bytes.subarray(end + 1) };
});

/** The light bundles imported by another (`tokencli:NAME`), once each: their classes are shared. */
const lightImports = new Map();
const LIGHT_IMPORT = 'tokencli:';

/**
 * `import(id)` for the bundles. `tokencli:NAME` is a light bundle a light answer loads on demand
 * (the keychain's client, scripts/bundle.mjs). Inside the executable nothing is imported from disk:
 * builtins come from node, the packages (and the keychain's native addon) from the executable's own
 * bundle.
 */
function bundleImport(id) {
  if (id.startsWith(LIGHT_IMPORT)) {
    try {
      const name = id.slice(LIGHT_IMPORT.length);
      if (!lightImports.has(name)) lightImports.set(name, loadLight(name));
      return Promise.resolve(lightImports.get(name));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  if (!sea) return import(id);
  try {
    const builtin = process.getBuiltinModule(id);
    // The module's properties through its prototype: copying them would run node's lazy getters.
    const namespace = builtin && Object.create(builtin, { default: { value: builtin } });
    return Promise.resolve(namespace ?? seaRequire(id));
  } catch (error) {
    return Promise.reject(error);
  }
}

let seaImports;
/**
 * A package inside the executable (its sea-imports.cjs asset: scripts/release/sea-executable.mjs), given
 * what the launcher lends it (src/sea/imports.ts `Launcher`).
 */
function seaRequire(id) {
  seaImports ??= loadLight('sea-imports', true);
  return seaImports.seaRequire(id, { cacheRoot: trustedCacheRoot, removeAllButLatest });
}

/** The executable's own code cache of a bundle (its asset NAME.code-cache), or undefined. */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const embeddedCache = (function embeddedCache(name) {
  try {
    // A view of the executable's bytes: no copy.
    return parseCacheFile(Buffer.from(sea.getRawAsset(`${name}.code-cache`)));
  } catch {
    // An executable built without one.
    return undefined;
  }
});

/**
 * Runs dist/cli-bundle/NAME.cjs (a light bundle, scripts/bundle.mjs; inside the executable, its
 * asset of the same name) and returns its exports. `require` is the lazy one unless `plainRequire`: a
 * bundle that copies a builtin's properties, or requires a package (the executable's full CLI),
 * needs the modules themselves.
 */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const loadLight = (function loadLight(name, plainRequire = false) {
  const vm = process.getBuiltinModule('node:vm');
  const filename = sea ? `tokencli:${name}.cjs` : `${bundles}${sep}${name}.cjs`;
  // The bundles are ASCII (scripts/bundle.mjs and scripts/release/sea-executable.mjs escape the rest),
  // so latin1 straight from the asset's bytes reads them as utf8 would, without the copy and the
  // TextDecoder of getAsset(name, 'utf8'): a quarter of a millisecond for light-token.
  const source = sea
    ? Buffer.from(sea.getRawAsset(`${name}.cjs`)).toString('latin1')
    : fs.readFileSync(filename, 'utf8');
  const build = source.startsWith(HEADER) ? source.slice(HEADER.length, source.indexOf('\n')) : undefined;
  const cacheFile = codeCacheDir && build && `${codeCacheDir}${sep}${name}-${build}`;
  let cached;
  // A file of the user's that is refused (damaged, foreign, unreadable) is written anew by this run,
  // even where the executable's own cache then serves it.
  let refused = false;
  try {
    // Asked first: in a home with none yet (every run of the executable in a CI job), a failed read
    // would cost an exception with its stack, more than the question.
    if (cacheFile && fs.existsSync(cacheFile)) {
      refused = true;
      const bytes = readableCacheDir() ? readOwnCacheFile(cacheFile) : undefined;
      if (bytes) cached = parseCacheFile(bytes);
      refused = cached === undefined;
    }
  } catch {
    // Gone meanwhile, or unreadable: compiled without.
  }
  // The executable carries the cache its build made of each bundle (scripts/release/train-code-cache.mjs):
  // its first run is as quick as the next ones, in a CI job's fresh home as anywhere. A cache file
  // of the user's, written when a run took a path the build's did not, knows more and comes first.
  if (cached === undefined && sea) cached = embeddedCache(name);
  // The wrapper stays on the source's first line (a comment), so line numbers in stacks are the file's.
  const script = new vm.Script(`(function (exports, require, module, __import) {${source}\n})`, {
    filename,
    cachedData: cached?.data,
  });
  const used = new Set();
  if (cacheFile) {
    const seen = cached === undefined || refused || script.cachedDataRejected ? undefined : cached.seen;
    loaded.push({ script, name, file: `${name}-${build}`, seen, used });
  }
  const module = { exports: {} };
  const require = plainRequire ? (id) => process.getBuiltinModule(id) ?? seaRequire(id) : lazyRequire(used);
  script.runInThisContext()(module.exports, require, module, bundleImport);
  return module.exports;
});

/**
 * Writes the code cache of each script this run loaded (only light-argv's when the light answer
 * `declined`) that had none V8 accepted, or whose run took a path its cache had not seen; failing
 * only costs the next run speed.
 */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const saveCodeCaches = (function saveCodeCaches(declined = false) {
  for (const { script, name, file, seen, used } of loaded.splice(0)) {
    if (declined && name !== 'light-argv') continue;
    let known = seen !== undefined;
    if (known) for (const id of used) if (!seen.includes(id)) known = false;
    if (known) continue;
    const paths = [...new Set([...(seen ?? []), ...used])].sort().join(',');
    try {
      // Written only where no one else can touch what is written or removed (trustedCacheRoot).
      const root = trustedCacheRoot();
      if (root === undefined) continue;
      const codeCacheDir = `${root}${sep}${CODE_CACHE_DIR}`;
      const cacheFile = `${codeCacheDir}${sep}${file}`;
      const made = fs.mkdirSync(codeCacheDir, { recursive: true, mode: 0o700 }) !== undefined;
      // As the reads ask (readableCacheDir): not a link, nor a directory others may write into.
      const versions = codeCacheDir.slice(0, codeCacheDir.lastIndexOf(sep));
      if (!ownDirectory(versions) || !ownDirectory(codeCacheDir)) continue;
      // This node's first cache here: other nodes' directories but the KEPT_NODES last written go.
      if (made) removeAllButLatest(otherDirectories(versions, codeCacheDir.slice(versions.length + 1)), KEPT_NODES);
      // Written aside and renamed: a run reading it meanwhile sees the old file or the new, whole.
      // A name of its own, created afresh ('wx'): two writers never share a partial file.
      const partial = `${cacheFile}.${process.pid}-${Math.random().toString(36).slice(2)}.partial`;
      const data = script.createCachedData();
      try {
        fs.writeFileSync(partial, Buffer.concat([Buffer.from(`${CACHE_MAGIC}${paths}\n`, 'latin1'), data]), {
          mode: 0o600,
          flag: 'wx',
        });
        fs.renameSync(partial, cacheFile);
      } catch (error) {
        // Not kept: a full disk, or a directory at the cache's name, would leave one behind at
        // every run.
        fs.rmSync(partial, { force: true });
        throw error;
      }
      // Other builds' caches of this bundle: the KEPT_BUILDS last written stay, for two releases in
      // use side by side (a global install and a project's pinned npx) would otherwise delete each
      // other's at every run; older ones go, and so do partial files a killed writer left (a
      // minute old: a writer at work renames its own within milliseconds). Another build's name
      // is as long as this one's (the build is a fixed-length hash), which no other bundle's is.
      const current = file;
      const now = Date.now();
      const others = [];
      for (const entry of fs.readdirSync(codeCacheDir)) {
        if (entry === current || !entry.startsWith(`${name}-`)) continue;
        const partial = entry.endsWith('.partial') && entry.charAt(current.length) === '.';
        if (!partial && entry.length !== current.length) continue;
        const path = join(codeCacheDir, entry);
        const stat = fs.statSync(path, { throwIfNoEntry: false });
        if (stat === undefined) continue;
        if (!partial) others.push({ path, written: stat.mtimeMs });
        else if (now - stat.mtimeMs > 60_000) fs.rmSync(path, { force: true });
      }
      removeAllButLatest(others, KEPT_BUILDS);
    } catch {
      // A cache that cannot be written only costs speed.
    }
  }
});

/** The full CLI's first line (scripts/bundle.mjs): the name of its build. */
const FULL_CLI_HEADER = '// tokencli build ';

/** The build of dist/cli-bundle/main.js, from its first line, or undefined. */
function fullCliBuild() {
  const fd = fs.openSync(`${bundles}${sep}main.js`, 'r');
  try {
    const head = Buffer.alloc(64);
    const line = head.toString('latin1', 0, fs.readSync(fd, head, 0, head.length, 0));
    const end = line.indexOf('\n');
    return line.startsWith(FULL_CLI_HEADER) && end !== -1
      ? line.slice(FULL_CLI_HEADER.length, end)
      : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The directory of node's compile cache for this build of the full CLI, made ready, or undefined
 * where it may not be used.
 */
function compileCacheDir() {
  // Node runs what it finds there: only from a directory of this user's, where no one else could
  // have put anything (trustedCacheRoot), that no one else may write (the code cache files' rule,
  // above), and none may enter: node makes its own directories inside by the umask, open to all
  // under umask 000.
  const root = trustedCacheRoot();
  const build = fullCliBuild();
  if (root === undefined || !build) return undefined;
  const dir = `${root}${sep}compile-cache`;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || !ownedAlone(stat)) return undefined;
  if (ownUid !== undefined && (stat.mode & 0o077) !== 0) {
    fs.chmodSync(dir, 0o700);
    // What others could enter may hold what they put into node's directories there.
    for (const entry of fs.readdirSync(dir))
      fs.rmSync(`${dir}${sep}${entry}`, { recursive: true, force: true });
  }
  // A directory per build: node keys its entries by the file, and a new build's chunks have new
  // names. Another build's, but the KEPT_BUILDS last made, go when one is made; node's own
  // directories straight inside (v22.x.y-…: an earlier launcher's, which held every build's
  // entries) go at once, told apart by their dots, which a build's name has none of.
  const buildDir = `${dir}${sep}${build}`;
  if (fs.mkdirSync(buildDir, { recursive: true, mode: 0o700 }) !== undefined) {
    const builds = [];
    for (const other of otherDirectories(dir, build)) {
      if (other.path.includes('.', dir.length + 1)) fs.rmSync(other.path, { recursive: true, force: true });
      else builds.push(other);
    }
    removeAllButLatest(builds, KEPT_BUILDS);
  }
  return buildDir;
}

/** Answers lightly when it can, or runs the full CLI; an error it throws is a crash, as in any script. */
// biome-ignore format: the parentheses make V8 compile it with the script (see the top of this file)
const launch = (async function launch() {
  const args = process.argv.slice(2);
  // Ctrl-C on exec's way to its command, while the run has no handler of its own (the full CLI's
  // run-reported.ts, or exec's own once the command runs): said as an interrupted run, exit 130
  // (light-exec.ts `interrupted`) rather than a death by signal. Only for exec: token pays nothing.
  if (args.includes('exec')) {
    process.on('SIGINT', () => {
      if (process.listenerCount('SIGINT') === 1) loadLight('light-exec').interrupted(args);
    });
  }
  const plan = loadLight('light-argv').lightPlan(args);
  // A light answer (dist/cli-bundle/<plan.module>.cjs): an exit code, or false to decline.
  let code = false;
  if (plan?.kind === 'version') {
    try {
      // Straight to the descriptor: building process.stdout costs more than the rest of this run.
      fs.writeSync(1, `${plan.version}\n`);
      code = 0;
    } catch {
      // A pipe closed early, a full disk, a non-blocking descriptor: declined, so the full CLI's
      // output (src/cli/input/io.ts) meets it as it meets any command's.
    }
  } else if (plan) {
    code = await loadLight(plan.module).answer(plan);
  }
  // A cache holds the functions its run compiled, and is kept as long as V8 accepts it: one of an
  // answer that declined after its first steps would leave the rest of every answer uncached.
  saveCodeCaches(code === false);
  if (code !== false) {
    // Answered. On Linux every write to stdout/stderr (file, pipe, terminal) is synchronous, as is
    // the version's write anywhere, so nothing is pending: leaving now skips closing the
    // keychain's D-Bus connection (the native client's teardown once cost tens of milliseconds
    // after the work was done, bench/keychain.mjs) and node's teardown of the environment.
    if (process.platform === 'linux' || plan.kind === 'version') process.exit(code);
    process.exitCode = code;
  } else {
    // Node ≥ 22 keeps the full CLI's compiled modules in its own compile cache, beside ours
    // (the executable's full CLI is one of ours).
    const { enableCompileCache } = process.getBuiltinModule('node:module');
    if (enableCompileCache && cacheRoot && !sea) {
      try {
        const dir = compileCacheDir();
        if (dir) enableCompileCache(dir);
      } catch {
        // A cache that cannot be made only costs speed.
      }
    }
    const { main } = sea ? loadLight('main', true) : await import('../dist/cli-bundle/main.js');
    process.exitCode = await main(args);
    saveCodeCaches();
  }
});

void launch();
