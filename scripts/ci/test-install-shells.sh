#!/usr/bin/env bash
# install.sh's tests (test/release/install-script.test.ts), the whole file, once by each shell
# users may run the script by besides dash (which `npm test` runs it by): zsh and ksh93 (macOS has
# both), bash in its POSIX mode (as macOS runs /bin/sh), busybox's sh, mksh (which has no printf
# of its own), and yash (which keeps to POSIX closely). The script needs no node, so once is
# enough, on the machine's node. .ci/run and the CI workflow run it; each shell must be installed
# (scripts/ci/linux-test-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
shells=()
for tool in zsh ksh93 bash busybox mksh yash; do
  if ! path="$(command -v "$tool")"; then
    echo "test-install-shells: $tool is not installed (scripts/ci/linux-test-deps.sh installs it)" >&2
    exit 1
  fi
  case $tool in
    bash) shells+=("$path --posix") ;;
    busybox) shells+=("$path sh") ;;
    *) shells+=("$path") ;;
  esac
done
failed=0
for shell in "${shells[@]}"; do
  echo "test-install-shells: install.sh's tests run by $shell"
  TOKENCLI_TEST_INSTALL_SHELL="$shell" NODE_DISABLE_COMPILE_CACHE=1 npx vitest run test/release/install-script.test.ts ||
    failed=1
done
exit "$failed"
