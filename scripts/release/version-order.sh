# Sourced by npm-publish.sh and github-release.sh: whether a release is older than one already out,
# so that a fix to an older line (0.1.1 after 0.2.0) does not become npm's `latest` or GitHub's
# "Latest release", which `npm install tokencli` and the releases page would then offer.

# Whether release version $1 is higher than $2, both MAJOR.MINOR.PATCH (a tag's v dropped), by
# number field by field; a prerelease part is not compared (neither npm's latest nor GitHub's
# Latest is ever a prerelease).
version_higher() {
  awk -v a="${1%%-*}" -v b="${2%%-*}" 'BEGIN {
    split(a, x, "."); split(b, y, ".")
    for (i = 1; i <= 3; i++) if (x[i] + 0 != y[i] + 0) exit !(x[i] + 0 > y[i] + 0)
    exit 1
  }'
}
