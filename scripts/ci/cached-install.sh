#!/usr/bin/env bash
# Installs the npm package SPEC into DIR (`npm install --prefix DIR SPEC`) unless DIR already holds
# FILE (a path under DIR/node_modules), and prints that file's path: a tool the CI run caches
# outside the clone and a later run reuses. .ci/run takes its Node lines through it, and
# scripts/ci/consumer-tools.sh the other tools the consumer tests run.
set -euo pipefail
if [ $# != 3 ]; then
  echo "usage: scripts/ci/cached-install.sh DIR SPEC FILE   (e.g. ~/.cache/x/npm10 npm@10 npm/bin/npm-cli.js)" >&2
  exit 2
fi
dir=$1 spec=$2 file="$1/node_modules/$3"
# Into DIR.partial, renamed to DIR once whole: an install cut short is started over, never taken.
if [ ! -e "$file" ]; then
  rm -rf "$dir" "$dir.partial"
  npm install --prefix "$dir.partial" --no-audit --no-fund --loglevel=error "$spec" >/dev/null
  mv "$dir.partial" "$dir"
  [ -e "$file" ] || { echo "cached-install: $spec has no $3" >&2; exit 1; }
fi
echo "$file"
