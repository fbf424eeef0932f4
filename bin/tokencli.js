#!/usr/bin/env node
// Tiny launcher. `--version` is answered without loading the CLI (it is benchmarked against an
// empty node program); everything else goes to the built entry.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(args);
}
