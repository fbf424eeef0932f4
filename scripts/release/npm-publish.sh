#!/bin/sh
# The release workflow's npm publish (.github/workflows/release.yml), run by the tests too
# (test/release/npm-publish.test.ts): `sh scripts/release/npm-publish.sh [TAG [UPLOAD]]`, the tag
# (v0.1.0) from $TAG when not given, UPLOAD the directory scripts/release/collect.mjs made
# (default upload). Publishes exactly UPLOAD/tokencli-VERSION.tgz:
#
# - given as ./upload/… (or an absolute path): npm reads a bare `upload/tokencli-0.1.0.tgz` as
#   GitHub's owner/repo shorthand and goes to clone it;
# - a prerelease (v1.0.0-rc.1) to npm's `next`, never `latest` (npm refuses one without --tag);
# - nothing when npm has the version already: npm takes a version once, and a re-run after the
#   publish went through goes on to make the release public.
#
# Provenance is the workflow's NPM_CONFIG_PROVENANCE (npm reads it), not a flag here: outside
# GitHub Actions npm cannot attest a build, and the tests publish to a registry on loopback.
set -eu
tag=${1:-${TAG:-}}
upload=${2:-upload}
case $tag in
  v[0-9]*) ;;
  *)
    echo "npm-publish: the tag must be a version tag such as v0.1.0 (TAG or the first argument), not '$tag'" >&2
    exit 2
    ;;
esac
version=${tag#v}

# npm view fails on a package or version the registry does not have: then there is nothing on npm.
if [ "$(npm view "tokencli@$version" version 2>/dev/null)" = "$version" ]; then
  echo "tokencli@$version is on npm already"
  exit 0
fi

case $version in
  *-*) dist_tag=next ;;
  *) dist_tag=latest ;;
esac
tarball="$upload/tokencli-$version.tgz"
case $tarball in
  /* | ./* | ../*) ;;
  *) tarball="./$tarball" ;;
esac
if [ ! -f "$tarball" ]; then
  echo "npm-publish: $tarball is missing (scripts/release/collect.mjs puts the linux-x64 job's tarball there)" >&2
  exit 1
fi
npm publish --access public --tag "$dist_tag" "$tarball"
