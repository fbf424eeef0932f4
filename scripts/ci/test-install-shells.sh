#!/usr/bin/env bash
# install.sh's tests (test/release/install-script.test.ts), the whole file, once by each shell
# users may run the script by besides dash (which `npm test` runs it by): zsh and ksh93 (macOS has
# both), bash in its POSIX mode (as macOS runs /bin/sh), busybox's sh, mksh (which has no printf
# of its own), and yash (which keeps to POSIX closely). The script needs no node, so once is
# enough, on the machine's node. .ci/run and the CI workflow run it; each shell must be installed
# (scripts/ci/linux-test-deps.sh).
#
# Three shells' runs at a time: one run keeps a core about half busy (the tests mostly wait on
# install.sh and its downloads), so three in turn on two cores take half the time of one after
# another, which keeps .ci/run inside its 20 minutes. Each run's output is kept apart and printed
# whole when it ends, in the order above.
set -euo pipefail
cd "$(dirname "$0")/../.."
at_once=3
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

logs="$(mktemp -d "${TMPDIR:-/tmp}/tokencli-install-shells.XXXXXX")"
pids=()
# However this script ends (a failure, or CI stopping it), no run goes on without it, and its logs
# go. vitest, stopped, stops its workers and their tests' processes, but leaves its temporary
# directories; each run has its TMPDIR in here, so they go too.
stop_runs() {
  local pid try
  # (${a[@]+...}: bash before 4.4, macOS's, calls an empty array unset under set -u.)
  for pid in ${pids[@]+"${pids[@]}"}; do [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; done
  wait || true
  # A stopped run's tests' processes may still write into its TMPDIR for a moment.
  for try in 1 2 3 4 5; do
    rm -rf "$logs" 2>/dev/null && return 0
    sleep 1
  done
  rm -rf "$logs" || true
}
trap stop_runs EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Each run's TMPDIR is reached through a symbolic link, as macOS's is (/var/folders under /var, a
# link to /private/var), where zsh and bash as sh are the shells users have: a path install.sh
# makes absolute from its working directory comes back as the real one, and a test that expects
# the linked one fails here.
mkdir "$logs/real"
ln -s "$logs/real" "$logs/linked"
start_run() {
  local index="$1"
  mkdir "$logs/real/tmp$index"
  TOKENCLI_TEST_INSTALL_SHELL="${shells[$index]}" TMPDIR="$logs/linked/tmp$index" NODE_DISABLE_COMPILE_CACHE=1 \
    node_modules/.bin/vitest run test/release/install-script.test.ts >"$logs/$index.log" 2>&1 &
  pids[index]=$!
}

failed=0
for ((index = 0; index < ${#shells[@]} && index < at_once; index++)); do start_run "$index"; done
for ((index = 0; index < ${#shells[@]}; index++)); do
  if wait "${pids[index]}"; then status=passed; else status=FAILED; failed=1; fi
  pids[index]=''
  echo "test-install-shells: install.sh's tests run by ${shells[index]}: $status"
  cat "$logs/$index.log"
  next=$((index + at_once))
  if [ "$next" -lt "${#shells[@]}" ]; then start_run "$next"; fi
done
exit "$failed"
