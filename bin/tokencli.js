#!/usr/bin/env node
// Tiny launcher. It reads argv against the command model (dist/cli-bundle/light-argv.js, without
// commander): `--version` and the commands with a light answer (src/cli/light-argv.ts lists them:
// `token` and `exec` from the cache, `info`, `status`, `profile list|show`) are answered here when
// they can be; everything else — help, errors, unknown flags, anything that may prompt or renew —
// and any light answer that declines goes to the full CLI, the bundled entry (scripts/bundle.mjs
// says why), which decides every message.
const { enableCompileCache } = process.getBuiltinModule('node:module');
if (enableCompileCache) {
  // Node ≥ 22: compiled code is cached between runs, in a per-user cache directory; without a
  // home directory, not at all. Never under TMPDIR: a home there is a throw-away one (a test run,
  // a sandbox), where a cache only leaves files behind.
  const env = process.env;
  const { isAbsolute, join, sep } = process.getBuiltinModule('node:path');
  const tmp = process.getBuiltinModule('node:os').tmpdir();
  const home = env.HOME || env.USERPROFILE;
  const base =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : process.platform === 'win32' && env.LOCALAPPDATA
        ? env.LOCALAPPDATA
        : home && (process.platform === 'darwin' ? join(home, 'Library', 'Caches') : join(home, '.cache'));
  if (base && base !== tmp && !base.startsWith(tmp + sep)) {
    try {
      enableCompileCache(join(base, 'tokencli', 'compile-cache'));
    } catch {
      // A cache that cannot be made only costs speed.
    }
  }
}

const args = process.argv.slice(2);
const { lightPlan } = await import('../dist/cli-bundle/light-argv.js');
const plan = lightPlan(args);
if (plan?.kind === 'version') {
  try {
    // Straight to the descriptor: building process.stdout costs more than the rest of this run.
    process.getBuiltinModule('node:fs').writeSync(1, `${plan.version}\n`);
  } catch {
    process.stdout.write(`${plan.version}\n`);
  }
} else {
  // A light answer (dist/cli-bundle/<plan.module>.js): an exit code, or false to decline.
  const code = plan ? await (await import(`../dist/cli-bundle/${plan.module}.js`)).answer(plan) : false;
  if (code !== false) {
    // Answered. On Linux every write to stdout/stderr (file, pipe, terminal) is synchronous, so
    // nothing is pending: leaving now skips tearing down the keychain's native D-Bus client,
    // which costs tens of milliseconds after the work is done (bench/keychain.mjs).
    if (process.platform === 'linux') process.exit(code);
    process.exitCode = code;
  } else {
    const { main } = await import('../dist/cli-bundle/main.js');
    process.exitCode = await main(args);
  }
}
