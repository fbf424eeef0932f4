#!/usr/bin/env bash
# The other tools the package's consumer tests need beside this project's own, installed under DIR
# (scripts/ci/cached-install.sh: once, then reused), printed as the NAME=path lines those tests
# read, for GITHUB_ENV or `export`. In CI the tests must run, not skip; locally they skip without
# these variables.
#   TOKENCLI_TEST_TSC5   TypeScript 5's tsc: a consumer compiled with `moduleResolution: node10`,
#                        which this project's TypeScript 7 no longer has (test/e2e/package-types.test.ts)
#   TOKENCLI_TEST_NPM10  npm 10's npm-cli.js: the packed tarball installs without a warning on npm
#                        10 (the npm of Node 20 and 22) as on this machine's 11 (test/e2e/package.test.ts)
#   TOKENCLI_TEST_NPM12  npm 12's npm-cli.js: the same on the registry's latest npm, which links no
#                        man page (the same test; it runs on Node 22.22.2, 24.15, 26 and later)
set -euo pipefail
dir=${1:?usage: scripts/ci/consumer-tools.sh DIR}
install="$(dirname "$0")/cached-install.sh"
# Each into a variable first: a failed install inside echo's arguments would not stop the script.
tsc5=$("$install" "$dir/typescript5" typescript@5 typescript/bin/tsc)
npm10=$("$install" "$dir/npm10" npm@10 npm/bin/npm-cli.js)
npm12=$("$install" "$dir/npm12" npm@12 npm/bin/npm-cli.js)
echo "TOKENCLI_TEST_TSC5=$tsc5"
echo "TOKENCLI_TEST_NPM10=$npm10"
echo "TOKENCLI_TEST_NPM12=$npm12"
