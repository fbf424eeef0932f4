#!/usr/bin/env bash
# Checks release/ (`npm run build:release`, Linux) as a user gets it: SHA256SUMS verifies, the
# executable extracted from the archive runs with no node on PATH, passes the release smoke test
# (with the keychain round trip in a D-Bus session of its own when gnome-keyring is there) and
# the CLI's end-to-end tests (TOKENCLI_BINARY). .ci/run and the CI workflow run it.
set -euo pipefail
cd "$(dirname "$0")/../.."
(cd release && sha256sum -c --quiet SHA256SUMS)
version="$(node -p 'require("./package.json").version')"
dir="$(mktemp -d "${TMPDIR:-/tmp}/tokencli-binary.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
tar -xzf "release/tokencli-$version-linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/').tar.gz" -C "$dir"
if [ "$(env -i PATH=/nonexistent "$dir/tokencli" --version)" != "$version" ]; then
  echo "test-binary: the extracted executable does not print $version without node on PATH" >&2
  exit 1
fi
if command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
  # The bus's and gnome-keyring's sockets in $dir too (test/store/fixtures/session-bus.sh).
  mkdir "$dir/home" && mkdir -m 700 "$dir/run"
  HOME="$dir/home" XDG_RUNTIME_DIR="$dir/run" test/store/fixtures/session-bus.sh sh -c \
    'printf ci | gnome-keyring-daemon --unlock --components=secrets >/dev/null && node scripts/release/smoke.mjs "$0" --keychain' \
    "$dir/tokencli"
else
  node scripts/release/smoke.mjs "$dir/tokencli"
fi
# Left out, as tests of the npm package rather than of the CLI: its launcher's internals, which
# they watch through NODE_OPTIONS (the executable takes none) and dist/ (code-cache,
# light-answers); the packed tarball and its types (package, package-types); the demo script.
TOKENCLI_BINARY="$dir/tokencli" NODE_DISABLE_COMPILE_CACHE=1 npx vitest run test/e2e \
  --exclude test/e2e/code-cache.test.ts --exclude test/e2e/light-answers.test.ts \
  --exclude test/e2e/package.test.ts --exclude test/e2e/package-types.test.ts \
  --exclude test/e2e/demo.test.ts
