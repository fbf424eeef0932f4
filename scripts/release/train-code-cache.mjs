/**
 * Makes the code caches the single executable carries (sea-executable.mjs embeds them as the assets
 * NAME.code-cache; bin/tokencli.js reads one when the user's cache directory has none).
 *
 * The launcher keeps V8's code cache of each bundle it compiles in the user's cache directory, so
 * only a run that finds none compiles from source: the first run on each machine, and so every
 * run of a CI job that starts from a fresh home (about 7 ms more, docs/design.md). Here the
 * executable being built runs the commands the light answers serve — against its own
 * `tokencli serve`, with a file store and a cache directory of its own — and its launcher writes
 * those caches as it always does. The caller gives a fresh private directory for all of it, best
 * under the system's temporary directory: the launcher writes code only where no one else could
 * have written on the way (bin/tokencli.js trustedCacheRoot), which a checkout under a directory
 * its group may write (umask 002) is not. They are made by the very node and V8 flags the executable runs
 * with, which V8 checks before it accepts one.
 *
 * trainCodeCaches(exe, dir) returns { NAME: path } for each bundle the runs cached;
 * withTrainedCodeCaches(exe, use) trains in such a directory of its own and hands them to `use`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { makeDirOfThisProcess } from '../left-dirs.mjs';
import { BuildFailure } from './failure.mjs';
import { interruptible, runChild } from './interruptible.mjs';
import { withoutProxies } from './own-service-env.mjs';

/**
 * Trains in a fresh directory under the system's temporary directory, named by this process's id
 * so that a later build removes it if this one cannot (left-dirs.mjs), and
 * returns what `use(caches, signal)` returns; the directory is removed once `use` is done with
 * the caches, also when a signal interrupts the build, which then ends by it (interruptible.mjs:
 * `use` gives `signal` to what it runs, with runChild).
 */
export function withTrainedCodeCaches(exe, use) {
  return interruptible(async (signal) => {
    const dir = makeDirOfThisProcess('tokencli-training-');
    try {
      return await use(await trainCodeCaches(exe, dir, { signal }), signal);
    } finally {
      // Retried: on Windows a scanner may still hold a cache file just written.
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
}

/**
 * `tokencli serve` from the executable; resolves with the child and its base URL once it listens.
 * One that cannot start, ends first or prints no address is a BuildFailure: the executable just
 * built does not work, which the builder is told in one line with what it said.
 */
function serve(exe, env, signal) {
  const child = spawn(exe, ['serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Interrupted while it starts: stopped, which ends the wait below.
  const stop = () => child.kill();
  signal?.addEventListener('abort', stop, { once: true });
  child.once('exit', () => signal?.removeEventListener('abort', stop));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error) =>
      reject(new BuildFailure(`the executable cannot be run: ${error.message}`)),
    );
    // 'close', not 'exit': its stderr is then read to the end.
    child.once('close', (code, killedBy) =>
      reject(new BuildFailure(`\`tokencli serve\` ${ended(code, killedBy)} before listening${said(stderr)}`)),
    );
    createInterface({ input: child.stdout }).once('line', (line) => {
      child.removeAllListeners('close');
      // Its log on stderr is not read any more: not kept, nor left to fill the pipe.
      child.stderr.removeAllListeners('data').resume();
      let baseUrl;
      try {
        baseUrl = JSON.parse(line).base_url;
      } catch {
        // Not its address line.
      }
      if (typeof baseUrl === 'string') resolve({ child, baseUrl });
      else {
        const failure = new BuildFailure(
          `\`tokencli serve\` printed ${JSON.stringify(line.slice(0, 200))}, not its address`,
        );
        // Stopped and waited for, as at the end of the training.
        child.once('exit', () => reject(failure));
        child.kill();
      }
    });
  });
}

/**
 * Stops the service and waits for it to exit: Windows cannot rewrite an executable that still
 * runs (the build's next step), and nothing may write into the training directory once it is
 * removed. One that outlives SIGTERM by a few seconds is killed.
 */
async function stopService(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, SERVICE_STOP_MS, 'late');
  });
  if ((await Promise.race([exited, late])) === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

/** How long the service has to exit on SIGTERM. */
const SERVICE_STOP_MS = 5_000;

/** How a run ended: "exited with 3", "was killed by SIGSEGV". */
function ended(code, signal) {
  return signal ? `was killed by ${signal}` : `exited with ${code}`;
}

/** ": " and the last line a run wrote on stderr, or nothing. */
function said(stderr) {
  const last = stderr.trimEnd().split('\n').at(-1)?.slice(0, 300);
  return last ? `: ${last}` : '';
}

/**
 * `signal` (optional) interrupts the training: the run under way and the service are stopped
 * and waited for, so that nothing writes into `dir` once this has settled.
 */
export async function trainCodeCaches(exe, dir, { signal } = {}) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // An earlier training's caches would be taken for this one's.
  if (readdirSync(dir).length > 0) throw new BuildFailure(`training the code caches, ${dir} is not empty`);
  const configDir = join(dir, 'config');
  const cacheHome = join(dir, 'cache');
  const tmp = join(dir, 'tmp');
  for (const d of [configDir, cacheHome, tmp]) mkdirSync(d, { recursive: true, mode: 0o700 });
  // The builder's own TOKENCLI_ variables are left out: the training sets what it needs; so are
  // its proxy settings (own-service-env.mjs).
  const inherited = Object.entries(withoutProxies(process.env)).filter(
    ([name]) => !name.startsWith('TOKENCLI_'),
  );
  const env = {
    ...Object.fromEntries(inherited),
    TOKENCLI_CONFIG_DIR: configDir,
    TOKENCLI_STORE: 'file',
    // The launcher keeps no cache under TMPDIR (a throw-away home): this one is beside it.
    XDG_CACHE_HOME: cacheHome,
    TMPDIR: tmp,
    TMP: tmp,
    TEMP: tmp,
    NO_COLOR: '1',
  };
  const service = await serve(exe, env, signal);
  // A run that fails is the executable's failure, said in one line (failure.mjs). Run without
  // blocking node's event loop (runChild): an interruption stops the run under way.
  const run = async (args, extra = {}) => {
    try {
      return (await runChild(exe, args, { env: { ...env, ...extra }, signal })).stdout;
    } catch (error) {
      if (signal?.aborted) throw error;
      const how =
        typeof error.status === 'number' || error.signal
          ? ended(error.status, error.signal)
          : `could not be run (${error.message})`;
      throw new BuildFailure(
        `training the code caches, \`tokencli ${args.join(' ')}\` ${how}${said(error.stderr ?? '')}`,
      );
    }
  };
  try {
    // The profile a script uses: the demo client of `tokencli serve` (docs/serve.md).
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({ profiles: { ci: { base_url: service.baseUrl, client_id: 'demo-client' } } }),
      { mode: 0o600 },
    );
    const profile = { TOKENCLI_PROFILE: 'ci' };
    await run(['--version']);
    // The full CLI and the packages it imports: a token obtained with the client-credentials grant.
    await run(['token'], {
      ...profile,
      TOKENCLI_CLIENT_SECRET: 'demo-secret',
      TOKENCLI_EMAIL: 'demo@example.com',
      TOKENCLI_PASSWORD: 'demo-password',
    });
    // Each light answer, from that cached token.
    await run(['token'], profile);
    await run(['status'], profile);
    await run(['profile', 'list']);
    await run(['info'], profile);
    await run(['exec', '--', exe, '--version'], profile);
  } finally {
    await stopService(service.child);
  }
  const codeCache = join(cacheHome, 'tokencli', 'code-cache');
  const versions = existsSync(codeCache) ? readdirSync(codeCache) : [];
  // None: the launcher found the cache home unfit to write code into (bin/tokencli.js
  // trustedCacheRoot), e.g. below a directory that others, or its group, may write.
  if (versions.length === 0)
    throw new BuildFailure(
      `training the code caches, the executable wrote none under ${cacheHome}${process.platform === 'win32' ? '' : ': may others or their group write a directory above it?'}`,
    );
  if (versions.length > 1)
    throw new BuildFailure(
      `training the code caches, the executable wrote them for ${versions.length} nodes, not one`,
    );
  const caches = {};
  for (const file of readdirSync(join(codeCache, versions[0]))) {
    // NAME-BUILD, as the launcher names them; a partial file means a writer died.
    const match = /^(.+)-([A-Za-z0-9_-]{16})$/.exec(file);
    if (!match)
      throw new BuildFailure(`training the code caches, the executable left ${file} (a writer that died?)`);
    caches[match[1]] = join(codeCache, versions[0], file);
  }
  return caches;
}
