#!/bin/sh
# Installs the tokencli executable from a release, for the current user, without root:
#
#   curl -fsSL https://github.com/tokencli/tokencli/releases/download/v0.1.0/install.sh | sh
#
# or download it, read it, then `sh install.sh`. It picks the archive for this OS and CPU,
# downloads it and SHA256SUMS (curl, or wget), checks the archive's SHA-256 against its line in
# SHA256SUMS BEFORE anything is unpacked, and puts `tokencli` into the install directory. On any
# failure it says why in one line, exits non-zero, and leaves nothing behind.
#
# Settings (environment):
#   TOKENCLI_VERSION       the release to install (default: the one this script came with)
#   TOKENCLI_INSTALL_DIR   where `tokencli` goes (default: ~/.local/bin)
#   TOKENCLI_DOWNLOAD_URL  the base URL of the release's files (default: its GitHub release), for
#                          a mirror
set -eu

# The release this script belongs to (test/release/install-script.test.ts: package.json's version).
RELEASED_VERSION=0.1.0

fail() {
  echo "tokencli install: $*" >&2
  exit 1
}

# Runs a command; if it fails, fails with WHY and the first line of the command's own complaint
# that is not blank, so that the refusal stays one line.
run() {
  why=$1
  shift
  complaint=$("$@" 2>&1 >/dev/null) && return 0
  complaint=$(printf '%s\n' "$complaint" | awk 'NF { print; exit }')
  fail "$why${complaint:+ ($complaint)}"
}

version=${TOKENCLI_VERSION:-$RELEASED_VERSION}
case $version in
  "" | [!0-9]* | *[!0-9A-Za-z.+-]*) fail "TOKENCLI_VERSION must be an exact version such as $RELEASED_VERSION, not '$version'" ;;
esac
install_dir=${TOKENCLI_INSTALL_DIR:-${HOME:?HOME is not set}/.local/bin}
base_url=${TOKENCLI_DOWNLOAD_URL:-https://github.com/tokencli/tokencli/releases/download/v$version}
base_url=${base_url%/}

os=$(uname -s)
case $os in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN*) os=win ;;
  *) fail "no tokencli release for this operating system ($os); see the README for installing with npm" ;;
esac
arch=$(uname -m)
case $arch in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) fail "no tokencli release for this processor ($arch); see the README for installing with npm" ;;
esac
if [ "$os" = win ]; then
  archive="tokencli-$version-$os-$arch.zip" program=tokencli.exe
else
  archive="tokencli-$version-$os-$arch.tar.gz" program=tokencli
fi

# The tools, found before anything is downloaded.
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
elif command -v openssl >/dev/null 2>&1; then
  sha256() { openssl dgst -sha256 "$1" | sed 's/^.*= *//'; }
else
  fail "no SHA-256 tool to verify the download (sha256sum, shasum or openssl)"
fi
if command -v curl >/dev/null 2>&1; then
  download() { curl -fsL --proto '=https,http' -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  download() { wget -q -O "$2" "$1"; }
else
  fail "neither curl nor wget is installed to download tokencli"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tokencli-install.XXXXXX" 2>/dev/null) ||
  fail "cannot make a temporary directory in ${TMPDIR:-/tmp}"
staged=
trap 'rm -rf "$tmp"; [ -z "$staged" ] || rm -f "$staged"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

download "$base_url/SHA256SUMS" "$tmp/SHA256SUMS" || fail "cannot download $base_url/SHA256SUMS"
download "$base_url/$archive" "$tmp/$archive" || fail "cannot download $base_url/$archive"

# The archive's line: "<64 hex digits>  <name>" (or " *<name>", binary mode), exactly one.
expected=$(awk -v name="$archive" '($2 == name || $2 == "*" name) && $1 ~ /^[0-9a-fA-F]+$/ && length($1) == 64 { print tolower($1) }' "$tmp/SHA256SUMS")
case $expected in
  "") fail "SHA256SUMS has no checksum for $archive; nothing installed" ;;
  *"
"*) fail "SHA256SUMS has more than one checksum for $archive; nothing installed" ;;
esac
actual=$(sha256 "$tmp/$archive" | tr 'A-F' 'a-f')
[ "$actual" = "$expected" ] || fail "checksum mismatch for $archive (expected $expected, got $actual); nothing installed"

mkdir "$tmp/unpacked"
if [ "$os" = win ]; then
  run "cannot unpack $archive" unzip -q "$tmp/$archive" "$program" -d "$tmp/unpacked"
else
  run "cannot unpack $archive" tar -xzf "$tmp/$archive" -C "$tmp/unpacked" "$program"
fi
[ -f "$tmp/unpacked/$program" ] || fail "$archive holds no $program"

run "cannot create $install_dir" mkdir -p "$install_dir"
# Copied beside the target, then renamed over it: a running tokencli is never half-written. The
# copy is removed on the way out unless the rename took it.
staged="$install_dir/.$program.$$"
run "cannot write to $install_dir" cp "$tmp/unpacked/$program" "$staged"
run "cannot install $install_dir/$program" chmod 755 "$staged"
run "cannot install $install_dir/$program" mv -f "$staged" "$install_dir/$program"
staged=

echo "tokencli $version installed: $install_dir/$program"
case ":${PATH:-}:" in
  *":$install_dir:"*) echo "$install_dir is on your PATH: run tokencli --help" ;;
  *) echo "$install_dir is not on your PATH; add it, e.g. export PATH=\"$install_dir:\$PATH\"" ;;
esac
