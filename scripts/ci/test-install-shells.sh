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
# However this script ends (done, failed, or stopped by CI or Ctrl-C), no run goes on without it,
# and its directory goes. vitest, stopped, stops its workers and their tests' processes, but runs
# no clean-up: what a run's tests made in its TMPDIR goes with this directory (one test, run as
# root, needs a directory in /tmp itself, which then stays until a later run removes it, an hour
# on at the earliest: scripts/left-dirs.mjs).
stop_runs() {
  local pid try
  # Every run not yet waited for, a run whose pid a signal kept from being noted included.
  for pid in $(jobs -p); do kill "$pid" 2>/dev/null || true; done
  wait || true
  # A stopped run's tests' processes may still write into its TMPDIR for a moment.
  for try in 1 2 3 4 5; do
    rm -rf "$logs" 2>/dev/null && return 0
    sleep 1
  done
  rm -rf "$logs" || true
}
# Stopped by a signal: the runs going are stopped and their output so far printed (what a run
# that hung was doing), then this script ends by that same signal, so that a caller (.ci/run)
# stops too rather than taking it for a failed step (or by its status, should the signal not end
# it). A second signal meanwhile is ignored, so the clean-up is not cut short.
stopped_by() {
  local signal="$1" status="$2" index
  trap '' INT TERM HUP
  for ((index = 0; index < ${#pids[@]}; index++)); do
    [ -z "${pids[index]:-}" ] || kill "${pids[index]}" 2>/dev/null || true
  done
  for ((index = 0; index < ${#pids[@]}; index++)); do
    [ -n "${pids[index]:-}" ] || continue
    wait "${pids[index]}" 2>/dev/null || true
    pids[index]=''
    echo "test-install-shells: install.sh's tests run by ${shells[index]}: stopped by SIG$signal"
    cat "$logs/$index.log" 2>/dev/null || true
  done
  stop_runs
  trap - EXIT "$signal"
  kill -s "$signal" $$
  exit "$status"
}
trap stop_runs EXIT
trap 'stopped_by INT 130' INT
trap 'stopped_by TERM 143' TERM
trap 'stopped_by HUP 129' HUP

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
  status=0
  wait "${pids[index]}" || status=$?
  # vitest ends with 130 on a SIGINT. A Ctrl-C reaches the whole process group, and where this
  # script was started with SIGINT ignored (an asynchronous command of a script is), its INT trap
  # cannot be set and only vitest sees it; so that status is a Ctrl-C here too.
  [ "$status" != 130 ] || stopped_by INT 130
  pids[index]=''
  if [ "$status" = 0 ]; then result=passed; else result=FAILED; failed=1; fi
  echo "test-install-shells: install.sh's tests run by ${shells[index]}: $result"
  cat "$logs/$index.log"
  next=$((index + at_once))
  if [ "$next" -lt "${#shells[@]}" ]; then start_run "$next"; fi
done
exit "$failed"
