#!/usr/bin/env node
// Tiny launcher. `--version` is answered without loading the CLI (it is benchmarked against an
// empty node program); a bare `token` first tries the cached-token fast path, which loads neither
// commander nor the command table (src/cli/fast-token.ts); everything else, and any `token` the
// fast path does not answer, goes to the bundled entry (scripts/bundle.mjs says why).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.js');
  try {
    // Straight to the descriptor: building process.stdout costs more than the rest of this run.
    process.getBuiltinModule('node:fs').writeSync(1, `${VERSION}\n`);
  } catch {
    process.stdout.write(`${VERSION}\n`);
  }
} else {
  const fast = args.length === 1 && args[0] === 'token';
  if (fast && (await (await import('../dist/cli-bundle/fast-token.js')).printCachedToken())) {
    // Answered. On Linux every write to stdout/stderr (file, pipe, terminal) is synchronous, so
    // nothing is pending: leaving now skips tearing down the keychain's native D-Bus client,
    // which costs tens of milliseconds after the work is done (bench/keychain.mjs).
    if (process.platform === 'linux') process.exit(0);
  } else {
    const { main } = await import('../dist/cli-bundle/main.js');
    process.exitCode = await main(args);
  }
}
