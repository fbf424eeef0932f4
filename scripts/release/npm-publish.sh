#!/bin/sh
# The release workflow's npm publish (.github/workflows/release.yml), run by the tests too
# (test/release/npm-publish.test.ts): `sh scripts/release/npm-publish.sh [TAG [UPLOAD]]`, the tag
# (v0.1.0) from $TAG when not given, UPLOAD the directory scripts/release/collect.mjs made
# (default upload). Publishes exactly UPLOAD/tokencli-VERSION.tgz:
#
# - given as ./upload/… (or an absolute path): npm reads a bare `upload/tokencli-0.1.0.tgz` as
#   GitHub's owner/repo shorthand and goes to clone it;
# - a prerelease (v1.0.0-rc.1) to npm's `next`, never `latest` (npm refuses one without --tag);
# - a release older than npm's `latest` (0.1.1 after 0.2.0) to its line's `latest-0.1`, never
#   `latest`, which `--tag latest` would move backwards;
# - nothing when npm has the version already: npm takes a version once, and a re-run after the
#   publish went through goes on to make the release public;
# - nothing, exit 1, when the registry cannot say whether it has the version, or what its latest
#   is (npm's own words above the script's line).
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

# What `npm view ARGS` prints: nothing for a version the registry does not have, nor for a package
# it does not have (E404, the first release). Any other failure (the registry down, credentials)
# stops the publish, said by npm above: taken for "not there", it would publish a version again,
# or move latest backwards.
registry_view() {
  errors=$(mktemp)
  if npm view "$@" 2>"$errors"; then
    rm -f "$errors"
    return 0
  fi
  if grep -q 'code E404$' "$errors"; then
    rm -f "$errors"
    return 0
  fi
  cat "$errors" >&2
  rm -f "$errors"
  echo "npm-publish: cannot ask the registry about $1 (npm view, above); nothing published" >&2
  return 1
}

published=$(registry_view "tokencli@$version" version)
if [ "$published" = "$version" ]; then
  echo "tokencli@$version is on npm already"
  exit 0
fi

# shellcheck source=version-order.sh
. "$(dirname "$0")/version-order.sh"
case $version in
  *-*) dist_tag=next ;;
  *)
    # npm moves latest to whatever --tag latest publishes, even backwards: a fix to an older line
    # goes to that line's own tag instead (latest-0.1 for 0.1.1 once 0.2.0 is out).
    latest=$(registry_view tokencli dist-tags.latest)
    if [ -n "$latest" ] && version_higher "$latest" "$version"; then
      dist_tag="latest-${version%.*}"
      echo "npm's latest is tokencli@$latest, newer: $version goes to the dist-tag $dist_tag"
    else
      dist_tag=latest
    fi
    ;;
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
