#!/usr/bin/env bash
# The Debian packages the test suite uses for real (root or sudo; .ci/run, and the CI workflow's
# Linux jobs, which run in Debian's node images): Secret Service (gnome-keyring on D-Bus) for the keychain backend,
# Chromium for the login flow, bash/zsh/fish for the completion scripts (each tested in its own
# shell), curl for exec's help example (run as printed), wget and wget2 for install.sh without curl,
# busybox, ksh, mksh and yash for install.sh run by each (test-install-shells.sh; bash and zsh too),
# libarchive-tools' bsdtar and original-awk for it with macOS's tar and awk,
# binutils' strip for the release build (scripts/release/sea-executable.mjs) and its readelf for the executable's glibc floor, groff and mandoc to render and lint the man
# page. Installed from the distribution, never downloaded by a test tool.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends \
  chromium gnome-keyring dbus dbus-x11 libsecret-tools ca-certificates openssl bsdutils \
  bash zsh fish busybox ksh mksh yash libarchive-tools original-awk curl wget wget2 binutils groff-base mandoc >/dev/null
