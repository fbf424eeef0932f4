#!/bin/sh
# The release workflow's GitHub release (.github/workflows/release.yml), run by the tests too
# (test/release/github-release.test.ts) against a fake gh:
#
#   sh scripts/release/github-release.sh draft [TAG [UPLOAD]]   the release of TAG (v0.1.0, else
#       $TAG) as a draft holding every file of UPLOAD (default upload, from
#       scripts/release/collect.mjs), marked a prerelease for a tag such as v1.0.0-rc.1;
#   sh scripts/release/github-release.sh public [TAG]            that draft made public, and the
#       repository's Latest release unless a newer one is (a fix to an older line).
#
# The release stays a draft until npm has the package (scripts/release/npm-publish.sh runs in
# between), so a failed publish leaves no public release without it. A re-run replaces a draft the
# run before left, and leaves a public release as it is (its npm publish and `public` then find
# nothing to do either). A gh that cannot say what releases there are ends the run in one line.
set -eu
action=${1:-}
tag=${2:-${TAG:-}}
upload=${3:-upload}
case $action in
  draft | public) ;;
  *)
    echo "usage: github-release.sh draft|public [TAG [UPLOAD]]" >&2
    exit 2
    ;;
esac
case $tag in
  v[0-9]*) ;;
  *)
    echo "github-release: the tag must be a version tag such as v0.1.0 (TAG or the second argument), not '$tag'" >&2
    exit 2
    ;;
esac

# gh release view's FIELD of release TAG (of the Latest release where TAG is empty), or nothing
# where gh says "release not found": then there is no such release. Any other failure
# (credentials, the network) is no answer, and a release made or published on it could sit beside
# an earlier run's draft, or become Latest over a newer release: it ends the run.
release_field() {
  errors=$(mktemp)
  if answer=$(gh release view ${1:+"$1"} --json "$2" --jq ".$2" 2>"$errors"); then
    rm -f "$errors"
    printf '%s\n' "$answer"
  elif grep -q 'release not found' "$errors"; then
    rm -f "$errors"
  else
    said=$(head -n 1 "$errors")
    rm -f "$errors"
    echo "github-release: cannot ask GitHub about ${1:-its Latest release} (gh release view: $said)" >&2
    return 1
  fi
}

case $action in
  draft)
    set -- "$upload"/*
    if [ ! -f "$1" ]; then
      echo "github-release: $upload holds no files to release (scripts/release/collect.mjs makes it)" >&2
      exit 1
    fi
    # A public one is never touched: a re-run of a job that went through does nothing.
    is_draft=$(release_field "$tag" isDraft)
    case $is_draft in
      "") ;;
      true) gh release delete "$tag" --yes ;;
      false)
        echo "the release $tag is public already: left as it is"
        exit 0
        ;;
      *)
        echo "github-release: gh release view $tag answered '$is_draft', not whether it is a draft" >&2
        exit 1
        ;;
    esac
    prerelease=""
    case $tag in
      *-*) prerelease=--prerelease ;;
    esac
    gh release create "$tag" --draft ${prerelease:+"$prerelease"} --verify-tag --title "tokencli $tag" \
      --generate-notes "$@"
    ;;
  public)
    # GitHub makes a release it publishes the repository's Latest, even an older line's fix.
    # shellcheck source=version-order.sh
    . "$(dirname "$0")/version-order.sh"
    latest=$(release_field "" tagName)
    case $latest in
      v[0-9]*)
        if version_higher "${latest#v}" "${tag#v}"; then
          echo "the Latest release is $latest, newer: $tag is made public without becoming Latest"
          gh release edit "$tag" --draft=false --latest=false
          exit 0
        fi
        ;;
    esac
    gh release edit "$tag" --draft=false
    ;;
esac
