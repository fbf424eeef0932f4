#!/usr/bin/env bash
# The action's install step (action.yml): the tokencli the token step runs, named in the step's
# `bin` output. Inputs arrive only as environment variables:
#   TOKENCLI_PATH          an existing executable to use as it is (input tokencli-path)
#   TOKENCLI_INSTALL       binary (default): the release executable for this runner, through the
#                          repository's install.sh (SHA256SUMS checked before unpacking; no node
#                          needed); npm: the npm package (needs node on the runner)
#   TOKENCLI_VERSION       the exact release (input version)
#   TOKENCLI_DOWNLOAD_URL  the release files' base URL, for a mirror (input download-url)
set -euo pipefail
# shellcheck source=failure.sh
. "$(dirname "$0")/failure.sh"
if [ -n "${TOKENCLI_PATH:-}" ]; then
  bin="$TOKENCLI_PATH"
  # A bare name is a program on PATH (a global install), as the token step will run it; never a
  # file of that name in the working directory, which the step would not run.
  case $bin in
    */* | *\\*) ;;
    *)
      if ! bin=$(command -v "$bin"); then
        error_annotation "tokencli-path $TOKENCLI_PATH is not a program on PATH (a file in the workspace is ./$TOKENCLI_PATH)"
        exit 2
      fi
      ;;
  esac
  if [ ! -f "$bin" ] || [ ! -x "$bin" ]; then
    error_annotation "tokencli-path $TOKENCLI_PATH is not an executable file or a program on PATH"
    exit 2
  fi
else
  # The release's tag (v0.1.0), as in the action's own `uses:` line, names the same version.
  case "${TOKENCLI_VERSION:-}" in v[0-9]*) TOKENCLI_VERSION=${TOKENCLI_VERSION#v} ;; esac
  export TOKENCLI_VERSION
  # Exact, as a release is named (1.2.3, or a prerelease such as 1.2.3-rc.1): npm would take 0.1,
  # 0.1.x or ^0.1.0 for a range and install what it picks, and the secrets go only to the release
  # chosen.
  if ! [[ ${TOKENCLI_VERSION:-} =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
    error_annotation "version must be an exact tokencli version such as 0.1.0, not '${TOKENCLI_VERSION:-}'"
    exit 2
  fi
  # The job's own temporary directory. Outside a runner (no RUNNER_TEMP), a fresh private one: under
  # a fixed name in a shared /tmp, another user's tokencli put there first would pass for an earlier
  # install, and the token step would hand it the secrets.
  if [ -n "${RUNNER_TEMP:-}" ]; then
    prefix="$RUNNER_TEMP/tokencli-$TOKENCLI_VERSION"
  else
    prefix="$(mktemp -d "${TMPDIR:-/tmp}/tokencli-action.XXXXXX")/tokencli-$TOKENCLI_VERSION"
  fi
  case "${TOKENCLI_INSTALL:-binary}" in
    binary)
      # The executable install.sh puts there: tokencli, or tokencli.exe on Windows.
      installed_bin() { if [ -e "$prefix/bin/tokencli.exe" ]; then bin="$prefix/bin/tokencli.exe"; else bin="$prefix/bin/tokencli"; fi; }
      installed_bin
      # Installed by an earlier use of the action in this job (RUNNER_TEMP is the job's own): not
      # downloaded again.
      if [ -f "$bin" ] && [ "$("$bin" --version 2>/dev/null || true)" = "$TOKENCLI_VERSION" ]; then
        echo "tokencli $TOKENCLI_VERSION already installed: $bin" >&2
      else
        [ -n "${TOKENCLI_DOWNLOAD_URL:-}" ] || unset TOKENCLI_DOWNLOAD_URL
        export TOKENCLI_INSTALL_DIR="$prefix/bin"
        failure_inputs="TOKENCLI_VERSION=version TOKENCLI_DOWNLOAD_URL=download-url"
        run_or_annotate "installing tokencli $TOKENCLI_VERSION" installed sh "$(dirname "$0")/../../install.sh"
        # Its first line says what was installed where; the PATH advice after it is for a shell,
        # and the action runs tokencli by its path.
        printf '%s\n' "${installed%%$'\n'*}" >&2
        installed_bin
      fi
      ;;
    npm)
      if ! command -v npm >/dev/null; then
        error_annotation "install: npm needs Node and npm on the runner (actions/setup-node); install: binary needs neither"
        exit 2
      fi
      run_or_annotate "installing the npm package tokencli@$TOKENCLI_VERSION" installed \
        npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error "tokencli@$TOKENCLI_VERSION"
      [ -z "$installed" ] || printf '%s\n' "$installed" >&2
      bin="$prefix/node_modules/.bin/tokencli"
      ;;
    *)
      error_annotation "install must be binary or npm"
      exit 2
      ;;
  esac
fi
if [ -n "${TOKENCLI_PATH:-}" ]; then
  # A tokencli-path that does not run, or runs as something else, is an input the action cannot
  # use: said with 2, as the other inputs are, before the token step hands it the secrets.
  failure_status=2
  case $bin in
    *.js) failure_context="a checkout's bin/tokencli.js runs with node on the runner (actions/setup-node), after npm ci and npm run build" ;;
  esac
fi
run_or_annotate "running $bin --version" version "$bin" --version
# tokencli prints its version alone (0.1.0, 1.2.0-rc.1); another program's first line is shown,
# in one line of printable characters.
if [ -n "${TOKENCLI_PATH:-}" ] && ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]]; then
  printed=$(first_printable_line "$version")
  error_annotation "tokencli-path $TOKENCLI_PATH is not tokencli: its --version printed '${printed:0:80}'"
  exit 2
fi
# What was installed must be the version asked for, whatever npm or a mirror made of it.
if [ -z "${TOKENCLI_PATH:-}" ] && [ "$version" != "$TOKENCLI_VERSION" ]; then
  printed=$(first_printable_line "$version")
  error_annotation "the tokencli installed for version $TOKENCLI_VERSION says it is '${printed:0:80}'; nothing was run with the secrets"
  exit 1
fi
echo "tokencli $version" >&2
echo "bin=$bin" >> "$GITHUB_OUTPUT"
