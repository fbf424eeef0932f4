#!/usr/bin/env bash
# A TypeScript 5 compiler for the consumer test of `moduleResolution: node10`
# (test/e2e/package-types.test.ts; this project's TypeScript 7 no longer has that mode), installed
# into DIR unless it is there already. Prints its tsc's path, for TOKENCLI_TEST_TSC5. .ci/run and
# every job of the CI workflow run it: in CI that test must run, not skip.
set -euo pipefail
dir=${1:?usage: scripts/ci/typescript5.sh DIR}
tsc="$dir/node_modules/typescript/bin/tsc"
# Into DIR.partial, renamed to DIR once whole: an install cut short is started over, never taken.
if [ ! -e "$tsc" ]; then
  rm -rf "$dir" "$dir.partial"
  npm install --prefix "$dir.partial" --no-audit --no-fund --loglevel=error typescript@5 >/dev/null
  mv "$dir.partial" "$dir"
fi
echo "$tsc"
