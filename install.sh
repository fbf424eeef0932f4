#!/bin/sh
# Installs the tokencli executable from a release, for the current user, without root:
#
#   curl -fsSL https://github.com/tokencli/tokencli/releases/download/v0.1.0/install.sh | sh
#
# or download it, read it, then `sh install.sh`. It checks that tokencli can go into the install
# directory, picks the archive for this OS and CPU, downloads it and SHA256SUMS (curl, or wget),
# each cut off past a size no release's comes near (256 MiB, 64 KiB) so that a mirror's endless
# file cannot fill the disk, checks the archive's SHA-256 against its line in SHA256SUMS BEFORE
# anything is unpacked, and puts `tokencli` into the install directory once it has run there
# (`--version`: an executable this system cannot start replaces nothing), and its man page beside
# (<dir>/../share/man/man1, for a <dir> named bin). On any failure it says why in one line, exits
# non-zero, and leaves nothing behind. Where other users could replace tokencli once installed (a
# directory on the way that others may write and is not sticky, or another user's), it says so in
# a warning on stderr, and the install stands.
#
# The file is ASCII only: yash, in the POSIX locale a container's shell often has, refuses to read a
# script with any other byte, even in a comment.
#
# What it promises is docs/contract.md section 5.2. It takes no arguments (--help says what it does
# and lists these). Settings (environment):
#   TOKENCLI_VERSION       the release to install (default: the one this script came with)
#   TOKENCLI_INSTALL_DIR   where `tokencli` goes (default: ~/.local/bin)
#   TOKENCLI_DOWNLOAD_URL  the base URL of the release's files (default: its GitHub release), for
#                          a mirror: https://, or http:// only on this machine (127.0.0.1,
#                          localhost, [::1]); the file names are appended to it
#   https_proxy or HTTPS_PROXY, no_proxy or NO_PROXY, for curl and wget alike
#
# Everything runs from `main` on the last line, so that a script cut short on its way through a
# pipe defines functions and does nothing.

# zsh, when the script is piped to it, splits and globs unlike sh (an unquoted $var stays one word,
# a pattern that matches nothing is an error): told to, it reads the rest as sh would, as autoconf's
# scripts have it do. Its own parameters stay special even so ($status is read-only, $path is
# PATH), so the script assigns none of them.
if [ -n "${ZSH_VERSION-}" ]; then emulate sh; fi
set -eu

# The release this script belongs to (test/release/install-script.test.ts: package.json's version).
RELEASED_VERSION=0.1.0
# Where each release's files are, under v<version>: the default TOKENCLI_DOWNLOAD_URL.
RELEASES=https://github.com/tokencli/tokencli/releases/download

# The refusal, always one line: a value it names (a version, a directory) may hold a line break or
# an escape sequence, which would make it two lines or rewrite the terminal.
fail() {
  line=$({ printf '%s' "$*" | printable | tr '\n' ' '; } 2>/dev/null) || line=
  # Without sed or tr to clean it (the shell's "not found" kept out of the one line), the message as
  # it is rather than none.
  [ -n "$line" ] || line=$*
  printf 'tokencli install: %s\n' "$line" >&2
  exit 1
}

# A line on stdout, as it is: dash's echo would read a backslash in a path as an escape.
say() {
  printf '%s\n' "$*"
}

# The answer to --help: what the script does, and its settings with their defaults. (No backquote:
# this here-document is expanded.)
usage() {
  cat <<EOF
usage: sh install.sh
   or: curl -fsSL $RELEASES/v$RELEASED_VERSION/install.sh | sh

Installs tokencli for this user, without root: downloads this system's release
archive and SHA256SUMS, checks the archive's SHA-256 before unpacking it, and
puts tokencli into the install directory (its man page into
<prefix>/share/man/man1, when that directory is a <prefix>/bin). On a failure it
says why in one line, exits 1, and leaves nothing installed or behind. Run it
as yourself: run by sudo (or doas), it installs only into a TOKENCLI_INSTALL_DIR
given, such as /usr/local/bin for every user.

It takes no arguments. Settings, from the environment:
  TOKENCLI_VERSION       the release to install (default: $RELEASED_VERSION, this script's)
  TOKENCLI_INSTALL_DIR   where tokencli goes (default: ~/.local/bin)
  TOKENCLI_DOWNLOAD_URL  the base URL of the release's files, for a mirror:
                         https://, or http:// on this machine only
                         (default: $RELEASES/v<version>)
  https_proxy or HTTPS_PROXY, no_proxy or NO_PROXY
                         a proxy for https, and the hosts reached without it
  CURL_CA_BUNDLE (curl), WGETRC with ca_certificate (wget)
                         a CA of this network's own (a proxy that inspects TLS)

Example:
  curl -fsSL $RELEASES/v$RELEASED_VERSION/install.sh |
    TOKENCLI_INSTALL_DIR="\$HOME/bin" sh
EOF
}

# TEXT as it may stand between double quotes in a line the user pastes into a shell: $, `, " and \
# escaped, so that the shell reads it back as it is.
in_double_quotes() {
  printf '%s' "$1" | sed 's/[$`"\\]/\\&/g'
}

# A line on stderr that does not stop the install.
warn() {
  printf 'tokencli install: warning: %s\n' "$*" >&2
}

# The first line of its input that is not blank: a tool's complaint kept to one line of ours.
first_line() {
  awk 'NF { print; exit }' | printable
}

# Its input as a terminal may show it. A downloader's complaint can carry what a server said (the
# reason of an HTTP status, where wget2 prints it as it came): escape sequences, which would colour,
# move or retitle the user's terminal, go whole (CSI, OSC, and any other ESC and the character
# after it), then the C1 controls in UTF-8 (U+0080 to U+009F: a terminal may take U+009B for CSI)
# and every control character left but tab and newline. `[[]` and `[]]` are the brackets as any
# sed reads them.
printable() {
  esc=$(printf '\033')
  bel=$(printf '\007')
  c1=$(printf '\302[\200-\237]')
  # Braced: zsh, which some pipe this script to, reads "$esc[" as a subscript of $esc.
  LC_ALL=C sed -e "s|${esc}[[][0-?]*[ -/]*[@-~]||g" \
    -e "s|${esc}[]][^${bel}${esc}]*${bel}||g" -e "s|${esc}[]][^${bel}${esc}]*${esc}\\\\||g" \
    -e "s|${esc}[]][^${bel}${esc}]*||g" -e "s|${esc}.||g" -e "s|${c1}||g" | LC_ALL=C tr -d '\000-\010\013-\037\177'
}

# Whether a download that began on https:// met a redirect to plain http://, as LOG, the
# downloader's own words, tells by PATTERN; said if so. (curl and wget2 are told to refuse such a
# redirect, and fail; GNU and busybox wget follow it, and the file is not used.)
downgraded() {
  [ "$scheme" = https ] && grep -qi "$1" "$2" &&
    echo "the download was redirected to plain http://, which is refused" >&2
}

# Runs a command; if it fails, fails with WHY and the first line of the command's own complaint
# that is not blank, so that the refusal stays one line.
run() {
  why=$1
  shift
  complaint=$("$@" 2>&1 >/dev/null) && return 0
  complaint=$(printf '%s\n' "$complaint" | first_line)
  fail "$why${complaint:+ ($complaint)}"
}

# Says on stderr why wget (GNU's or wget2) failed, as curl says it: "wget: (STATUS) <what its exit
# status means>", then WORDS, its own reason, when it gave one (-nv does not always).
wget_failed() {
  case $1 in
    1) meaning="generic error" ;;
    2) meaning="cannot parse its options or wgetrc" ;;
    3) meaning="file I/O error" ;;
    4) meaning="network failure" ;;
    5) meaning="TLS certificate verification failure" ;;
    6) meaning="authentication failure" ;;
    7) meaning="protocol error" ;;
    8) meaning="server error response" ;;
    *) meaning="error" ;;
  esac
  say "wget: ($1) $meaning${2:+: $2}" >&2
}

# Whether the temporary directory has no room left (a full disk, a quota reached): one byte cannot
# be written there. Said in place of the downloader's or tar's words, which are then lost (the log
# they went to could not be written either) or say only that a write fell short.
no_room() {
  ! printf x 2>/dev/null >"$tmp/room"
}

# Keeps, for fetch, the HTTP status of a server's error answer as a wget worded it: the first number
# in WORDS, when it has three digits (GNU wget's "ERROR 404: Not Found.", wget2's "HTTP ERROR
# response 404 ...", in whichever language they speak).
keep_status() {
  printf '%s\n' "$1" |
    awk 'match($0, /[0-9]+/) { if (RLENGTH == 3) print substr($0, RSTART, 3); exit }' >"$tmp/status"
}

# Whether any proxy variable is set, of those curl, wget or busybox's wget read.
proxy_set() {
  [ -n "${https_proxy-}${HTTPS_PROXY-}${http_proxy-}${HTTP_PROXY-}${all_proxy-}${ALL_PROXY-}" ]
}

# Whether this Linux system lacks the bundle of CA certificates its curl and wget trust by default,
# and none was given them: no file of those Go's crypto/x509 looks for (Debian's and Ubuntu's, Fedora's
# and RHEL's, openSUSE's, Alpine's), as in a slim container image before its ca-certificates package
# is installed. Every https download then fails as if the server's certificate were at fault.
no_ca_certificates() {
  [ "$os" = linux ] && [ -z "${CURL_CA_BUNDLE-}${SSL_CERT_FILE-}${SSL_CERT_DIR-}${WGETRC-}" ] || return 1
  for bundle in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt /etc/ssl/ca-bundle.pem \
    /etc/pki/tls/cacert.pem /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem /etc/ssl/cert.pem; do
    [ ! -s "$bundle" ] || return 1
  done
}

# Its input with the password of each proxy URL set replaced by ***: wget names a proxy URL it
# cannot read (one without its scheme) password and all. The password is the text between the
# first colon and the last @ of the URL without its scheme, as the user wrote it.
without_proxy_passwords() {
  secrets=
  for value in "${https_proxy-}" "${HTTPS_PROXY-}" "${http_proxy-}" "${HTTP_PROXY-}" "${all_proxy-}" "${ALL_PROXY-}"; do
    value=${value#*://}
    case $value in *@*) value=${value%@*} ;; *) continue ;; esac
    case $value in *:?*) secrets="$secrets${value#*:}
" ;; esac
  done
  # From the environment, as awk -v would read backslashes in them as escapes.
  SECRETS=$secrets awk 'BEGIN { n = split(ENVIRON["SECRETS"], secret, "\n") }
    {
      for (i = 1; i <= n; i++) {
        if (secret[i] == "") continue
        rest = $0
        out = ""
        while ((at = index(rest, secret[i])) > 0) {
          out = out substr(rest, 1, at - 1) "***"
          rest = substr(rest, at + length(secret[i]))
        }
        $0 = out rest
      }
      print
    }'
}

# Runs `download URL FILE` in a subshell where no file can grow past SIZE UNIT (KiB or MiB): a
# mirror's endless or oversized file, checked only once whole, would otherwise fill the disk first.
# ulimit -f, as wget has no such limit and curl's --max-filesize believes only a Content-Length
# before curl 8.4. Its unit is measured, not assumed: 512 bytes in dash, busybox, zsh, and bash 4
# or later as sh or with --posix, but 1024 in bash run as bash and in bash 3.2 even as sh (macOS's
# /bin/sh), where a limit counted in 512 would double. A write past it kills the downloader with
# SIGXFSZ (wget2 ignores a failed write and reads on, as it does where whatever started this
# script ignores that signal: to the end, though writing nothing), and the shell's words for that
# give way to ours. A lower limit the user has is kept (only root may raise one) and named when a
# download meets it; a shell that cannot set one downloads unbounded. No command here may fail
# unchecked: dash, and bash 3.2 as sh, keep set -e inside `run`'s command substitution, where a
# failure would end this subshell without a word, and the install with a reason-less refusal.
bounded() (
  # A writer killed by SIGXFSZ, the downloader or the one below, dumps no core into the current
  # directory (-c: not POSIX).
  ulimit -c 0 2>/dev/null || true
  # The unit: 600 bytes fit under a limit of one block of 1024, not of 512. The shell that waits
  # for the writer killed by SIGXFSZ may say so (dash, busybox, bash --posix) on its own stderr,
  # which the braces send away with the rest (the subshell's own 2> would be the writer's alone).
  unit=512
  {
    (ulimit -f 1 && printf '%600s' '' >"$tmp/ulimit-unit") || true
    size=$(wc -c <"$tmp/ulimit-unit") || size=0
    if [ $size -gt 512 ]; then unit=1024; fi
  } 2>/dev/null
  rm -f "$tmp/ulimit-unit"
  case $2 in
    KiB) blocks=$(($1 * 1024 / unit)) ;;
    *) blocks=$(($1 * 1048576 / unit)) ;;
  esac
  too_large="larger than $1 $2, far more than a release's: refused"
  now=$(ulimit -f 2>/dev/null) || now=
  case $now in
    unlimited) ulimit -f "$blocks" 2>/dev/null || true ;;
    "" | *[!0-9]*) ;;
    *)
      if [ "$now" -gt "$blocks" ]; then
        ulimit -f "$blocks" 2>/dev/null || true
      else
        blocks=$now too_large="larger than the limit on a file's size here (ulimit -f $now)"
      fi
      ;;
  esac
  download "$3" "$4" 2>"$tmp/download.log" && exit 0
  # The file reached the limit: that many blocks of the unit measured. Or no room was left, told
  # while the part downloaded still takes it.
  if [ -f "$4" ] && size=$(wc -c <"$4") && [ $size -ge $((blocks * unit)) ]; then
    say "$too_large" >&2
  elif no_room; then
    say "$no_room_in_tmp" >&2
  else
    cat "$tmp/download.log" >&2
  fi
  exit 1
)

# Downloads the release's file NAME into $tmp, cut off past SIZE UNIT (bounded), or fails as run does,
# then with HINT when the server answered that it has no such file (404, 410): a mistaken setting,
# more likely than not, where the downloader's own words would only say "not found".
fetch() {
  rm -f "$tmp/status"
  complaint=$(bounded "$2" "$3" "$base_url/$1" "$tmp/$1" 2>&1 >/dev/null) && return 0
  complaint=$(printf '%s\n' "$complaint" | first_line | without_proxy_passwords)
  http_status=$(cat "$tmp/status" 2>/dev/null) || http_status=
  case $http_status in 404 | 410) ;; *) set -- "$1" "$2" "$3" "" ;; esac
  # A certificate not trusted: most often, on a network whose proxy inspects TLS with a CA of its
  # own, which the downloader must be given (wget2 1.99 fails so behind any proxy: its own fault).
  # Or, where the system has no CA certificates at all, any server's (curl's 77: its CA file is
  # missing).
  case $complaint in
    *"curl: (60)"* | *"curl: (77)"* | *"wget: (5)"*)
      if [ -n "$old_wget2" ] && proxy_set; then
        set -- "$1" "$2" "$3" "this wget2 (1.x) cannot reach https through a proxy; $install_curl"
      elif no_ca_certificates; then
        set -- "$1" "$2" "$3" "this system has no CA certificates to check any server's with: install the ca-certificates package"
      elif [ "${complaint#*"curl: (77)"}" != "$complaint" ]; then
        # A CA file given to curl that cannot be read, which its own words name.
        :
      else
        set -- "$1" "$2" "$3" "if this network's proxy or mirror has a CA of its own, give the downloader its certificate (CURL_CA_BUNDLE=FILE for curl; for wget, ca_certificate = FILE in the file WGETRC names)"
      fi
      ;;
  esac
  fail "cannot download $(shown "$base_url")/$1${complaint:+ ($complaint)}${4:+: $4}"
}

# The archive's SHA-256 in SHA256SUMS, from its lines "<64 hex digits>  <name>" (or " *<name>"),
# as sha256sum -c reads them (a line may end in CR): each different one, so more than one line
# means a list that contradicts itself.
expected_sum() {
  awk -v name="$1" '{ sub(/\r$/, "") }
    NF == 2 && ($2 == name || $2 == "*" name) && $1 ~ /^[0-9a-fA-F]+$/ && length($1) == 64 && !seen[tolower($1)]++ { print tolower($1) }' "$2"
}

# The version of the archive ending in SUFFIX (-linux-x64.tar.gz) that SHA256SUMS lists, when it
# names one: another release's list. A version-like word only, as the file comes from the network.
listed_version() {
  awk -v prefix="tokencli-" -v suffix="$1" '{ sub(/\r$/, ""); name = $2; sub(/^\*/, "", name) }
    NF == 2 && length(name) > length(prefix suffix) && index(name, prefix) == 1 &&
      substr(name, length(name) - length(suffix) + 1) == suffix {
      v = substr(name, length(prefix) + 1, length(name) - length(prefix) - length(suffix))
      if (v ~ /^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$/ && length(v) <= 64) { print v; exit }
    }' "$2"
}

# Whether SHA256SUMS holds a single checksum line at all: a mirror that answers every path with a
# page of its own is not a release.
any_sum() {
  awk '{ sub(/\r$/, "") } NF == 2 && $1 ~ /^[0-9a-fA-F]+$/ && length($1) == 64 { found = 1; exit } END { exit !found }' "$1"
}

# A URL as it may be shown: without a user:password@ part, which would end up in a CI log.
shown() {
  printf '%s' "$1" | sed 's|^\([A-Za-z][A-Za-z0-9+.-]*://\)[^/@]*@|\1|'
}

# Whether URL (http://...) names this machine: 127.0.0.0/8, localhost or [::1], any port (the CLI's
# rule for a base URL, docs/contract.md section 2.1).
on_loopback() {
  host=${1#*://}
  host=${host%%[/?#]*}
  host=${host##*@}
  case $host in
    \[*) host=${host%%]*}] ;;
    *) host=${host%%:*} ;;
  esac
  host=$(printf '%s' "$host" | tr 'A-Z' 'a-z')
  case $host in
    localhost | "[::1]") return 0 ;;
    127.*) ;;
    *) return 1 ;;
  esac
  # 127.a.b.c: after the 127, three numbers and two dots.
  case ${host#127.} in
    "" | *[!0-9.]* | *..* | .* | *. | *.*.*.*) return 1 ;;
    *.*.*) return 0 ;;
  esac
  return 1
}

# Fails unless tokencli can go into the install directory, as far as can be told without making
# anything: it, or else the nearest directory above it that exists (where mkdir -p would begin), is
# a directory this user may write in, and tokencli's own name there is no directory. Checked before
# anything is downloaded, so that a mistaken TOKENCLI_INSTALL_DIR costs no download, and again just
# before the install, as anything may have changed in between (and the checks of mkdir, cd and
# mktemp stay: `test -w` does not know every reason a write may fail).
check_install_dir() {
  dir=$install_dir
  while [ ! -e "$dir" ] && [ ! -L "$dir" ]; do
    case $dir in
      */*)
        dir=${dir%/*}
        dir=${dir:-/}
        ;;
      # A relative name none of whose directories exists: the working directory, by its name.
      *) dir=$(pwd) || dir=. ;;
    esac
  done
  if [ "$dir" = "$install_dir" ]; then
    [ -d "$dir" ] || fail "$install_dir is not a directory; set TOKENCLI_INSTALL_DIR to the directory tokencli goes in"
    [ -w "$dir" ] && [ -x "$dir" ] ||
      fail "cannot write to $install_dir; set TOKENCLI_INSTALL_DIR to a directory you can write"
    [ ! -d "$install_dir/$program" ] || fail "$install_dir/$program is a directory; nothing installed"
  else
    [ -d "$dir" ] || fail "cannot create $install_dir: $dir is not a directory"
    # Closed to this user, $dir hides whether the install directory below it exists.
    [ -x "$dir" ] ||
      fail "cannot reach $install_dir: cannot enter $dir; set TOKENCLI_INSTALL_DIR to a directory you can write"
    [ -w "$dir" ] ||
      fail "cannot create $install_dir: cannot write to $dir; set TOKENCLI_INSTALL_DIR to a directory you can write"
  fi
}

# Removes the directories this run made for tokencli, when it installed nothing in them.
unmake() {
  printf '%s' "${made:-}" | while IFS= read -r dir; do rmdir -- "$dir" 2>/dev/null || [ ! -e "$dir" ] || break; done
}

# Removes, from DIR itself (not below it), the directories named NAME (a mktemp pattern) of runs
# that were killed before their clean-up (a CI job's time-out, SIGKILL): the staging directories
# beside the target and the man page, and the download's in TMPDIR. Only this user's, and days
# old: a run at work has written into its own within the minute; a link or another user's
# directory is never touched. -mtime +1: more than two days to GNU and busybox find, which round an
# age down, and more than one to BSD's (macOS), which rounds it up, so that +0 there would take a
# directory made a second ago.
remove_abandoned() {
  find "$1/." ! -name . -prune -type d -name "$2" -user "$(id -u)" -mtime +1 \
    -exec rm -rf {} \; 2>/dev/null || true
}

# Whether someone other than this user (uid ME) or root could change what ENTRY holds: a directory
# with the "other" write bit but not the sticky bit, or a directory or link that another user owns
# (they may change its modes, or replace the link even in a sticky directory). A sticky directory
# (/tmp) lets others add names but not remove or rename this user's: there, only the owner of the
# name on the way counts, and that name is checked in its turn. The group write bit is not looked
# at: Debian's user private groups (umask 002) make ~/.local/bin writable by a group that holds this
# user alone, and who else is in a group is not for sh to tell (members by their primary group are
# not listed in /etc/group). Nor are ACLs ("+" after the modes). The bits are read from ls -ld's
# modes, whose t or T in the last place POSIX specifies for the sticky bit: `test -k` is not POSIX
# (dash, bash, busybox and macOS's sh have it), and no test reads the other write bit.
exposed() {
  listing=$(LC_ALL=C ls -ldn -- "$1" 2>/dev/null) || return 1
  read -r modes links owner rest <<EOF
$listing
EOF
  case $modes in
    l*) ;;
    ????????w[x-]*) return 0 ;;
  esac
  case $owner in "" | *[!0-9]*) return 1 ;; esac
  [ "$owner" != 0 ] && [ "$owner" != "$me" ]
}

# The first directory on the way to DIR (absolute) that others could replace tokencli through, from
# DIR up to /, in `open`; empty when there is none or ls or id is missing (nothing is said then). A
# link on the way counts as its owner's, and so do the directories of what it points to, each of
# them up to / (pwd -P: their names without links), as the system goes through them too. Not looked
# at: a link in the middle of what a link points to (bin -> /srv/pub/link/bin, where pub/link is a
# link), nor the directories that hold it (/srv/pub, where others could replace that link), as
# pwd -P gives only where the links lead in the end.
exposed_dir() {
  open=
  me=$(id -u 2>/dev/null) || return 0
  on_way=$1
  while :; do
    if exposed "$on_way"; then
      open=$on_way
      return 0
    fi
    if [ -L "$on_way" ]; then
      real=$(CDPATH='' cd -P -- "$on_way" 2>/dev/null && pwd -P) || real=
      while [ -n "$real" ]; do
        if exposed "$real"; then
          open=$real
          return 0
        fi
        [ "$real" != / ] || break
        real=${real%/*}
        real=${real:-/}
      done
    fi
    [ "$on_way" != / ] || return 0
    on_way=${on_way%/*}
    on_way=${on_way:-/}
  done
}

main() {
  # Its settings are the environment's: an argument is a mistaken try at one (a version, a
  # directory, as other installers take them), refused before anything is done.
  case ${1-} in
    -h | --help)
      usage
      exit 0
      ;;
  esac
  [ $# = 0 ] ||
    fail "install.sh takes no arguments (given '$1'): its settings are environment variables, such as TOKENCLI_VERSION=$RELEASED_VERSION; sh install.sh --help lists them"
  # The programs it runs, found before anything is done: a slim container image may lack one (awk,
  # say), whose absence would otherwise surface later as another fault, a SHA256SUMS that seems no
  # list of checksums. The downloader, the SHA-256 tool and the unpacker are looked for below, with
  # the alternatives each has; id, ls and find serve only steps that may fail without harm.
  for tool in uname tr sed awk cut grep wc cat mktemp mkdir rmdir rm cp mv chmod; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed, and install.sh needs it; nothing installed"
  done
  # Nothing this script makes may be writable by others, whatever umask it was started with (000
  # in some containers): they could replace the tokencli that holds the user's secrets.
  umask go-w
  version=${TOKENCLI_VERSION:-$RELEASED_VERSION}
  # The release's tag is v<version>; the tag is taken too.
  case $version in v[0-9]*) version=${version#v} ;; esac
  case $version in
    "" | [!0-9]* | *[!0-9A-Za-z.+-]*) fail "TOKENCLI_VERSION must be an exact version such as $RELEASED_VERSION, not '$version'" ;;
  esac
  # The home directory as a prefix: "/" (a user without a home of their own) gives /.local/bin,
  # not //.local/bin.
  home=${HOME:-}
  case $home in /) home= ;; esac
  if [ -n "${TOKENCLI_INSTALL_DIR:-}" ]; then
    install_dir=$TOKENCLI_INSTALL_DIR
  elif [ -n "${HOME:-}" ]; then
    # A service account's home that is not there (/nonexistent): said as such, rather than as a
    # directory above it that cannot be written.
    [ -d "$HOME" ] ||
      fail "HOME ($HOME) is not a directory, so there is no ~/.local/bin: set TOKENCLI_INSTALL_DIR to the directory tokencli goes in"
    install_dir=$home/.local/bin
  else
    fail "HOME is not set: set TOKENCLI_INSTALL_DIR to the directory tokencli goes in"
  fi
  # Run as root by sudo (or doas) for another user, as `curl ... | sudo sh` does out of habit, the
  # default would be wrong either way: ~/.local/bin in root's home, where sudo usually points HOME
  # and the user cannot run it, or in the user's home where sudo keeps HOME, as root-owned files
  # that their own later installs cannot replace. Said before anything is downloaded or made; a
  # directory given (/usr/local/bin, for every user) is taken as meant. The advice sets it through
  # env, as doas, unlike sudo, takes no VAR=value before the command.
  invoker=${SUDO_USER:-${DOAS_USER:-}}
  if [ -z "${TOKENCLI_INSTALL_DIR:-}" ] && [ -n "$invoker" ] && [ "$invoker" != root ] &&
    [ "$(id -u 2>/dev/null || true)" = 0 ]; then
    by=sudo
    [ -n "${SUDO_USER:-}" ] || by=doas
    # Run from a file, the advice names it: pasted, a bare `sh` would wait for a script from the
    # terminal. Read from a pipe (`curl ... | sudo sh`), the pipe is still the way.
    again=sh
    case $0 in *install.sh) [ ! -f "$0" ] || again="sh \"$(in_double_quotes "$0")\"" ;; esac
    fail "run by $by, it would install tokencli as root into $install_dir: run install.sh without $by to install it for $invoker (it needs no root), or for every user with $by env TOKENCLI_INSTALL_DIR=/usr/local/bin $again"
  fi
  # A "~/bin" that no shell expanded (a CI file's env: block) means the home directory's.
  case $install_dir in
    "~" | "~/"*)
      [ -n "${HOME:-}" ] || fail "HOME is not set, so $install_dir means nothing: give TOKENCLI_INSTALL_DIR as a full path"
      [ -d "$HOME" ] ||
        fail "HOME ($HOME) is not a directory, so $install_dir means nothing: give TOKENCLI_INSTALL_DIR as a full path"
      case $install_dir in "~") install_dir=$HOME ;; *) install_dir=$home${install_dir#"~"} ;; esac
      ;;
  esac
  base_url=${TOKENCLI_DOWNLOAD_URL:-$RELEASES/v$version}
  base_url=${base_url%/}
  case $base_url in
    # A backslash: tools disagree on where the host of http://a\@b ends.
    *[?#\\]*) fail "TOKENCLI_DOWNLOAD_URL is the base the release's file names are appended to: no ?query, #fragment or backslash ($(shown "$base_url"))" ;;
  esac
  # Over plain http, SHA256SUMS and the archive could both be changed on the way, and the checksum
  # would prove nothing: only on this machine (a test server, a local mirror).
  scheme=$(printf '%s' "${base_url%%://*}" | tr 'A-Z' 'a-z')
  case $scheme in
    https) protocols='=https' ;;
    http)
      on_loopback "$base_url" ||
        fail "TOKENCLI_DOWNLOAD_URL: plain http:// is refused for a host other than this machine, as the files could be changed on the way; use https://"
      protocols='=http,https'
      # Without brackets, as no_proxy names an IPv6 address.
      mirror_host=${host#\[}
      mirror_host=${mirror_host%\]}
      ;;
    *) fail "TOKENCLI_DOWNLOAD_URL must be an https:// URL, not $(shown "$base_url")" ;;
  esac

  # For a platform with no executable: a checkout, or npm, which the README's Install gives as "once
  # published" (no release may have reached the registry yet).
  without_release="it runs with Node.js from a checkout, or from npm once published: see the README's Install section"
  os=$(uname -s)
  case $os in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) os=win ;;
    *) fail "no tokencli release for this operating system ($os); $without_release" ;;
  esac
  arch=$(uname -m)
  case $arch in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no tokencli release for this processor ($arch); $without_release" ;;
  esac
  # An Apple Silicon Mac in a Rosetta terminal says x86_64: its own build is the arm64 one.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n hw.optional.arm64 2>/dev/null)" = 1 ]; then
    arch=arm64
  fi
  if [ "$os" = win ]; then
    # Git for Windows has unzip.
    archive="tokencli-$version-$os-$arch.zip" program=tokencli.exe unpackers=unzip
  else
    # GNU tar runs gzip for -z.
    archive="tokencli-$version-$os-$arch.tar.gz" program=tokencli unpackers="tar gzip"
  fi
  # Found before anything is downloaded, as the tools below are.
  for tool in $unpackers; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed to unpack $archive"
  done

  # The tools, found before anything is downloaded. Each hashes its standard input: a file name
  # with a backslash would make sha256sum escape its output line.
  if command -v sha256sum >/dev/null 2>&1; then
    sha256_tool=sha256sum
    sha256() { sha256sum <"$1" | cut -d ' ' -f 1; }
  elif command -v shasum >/dev/null 2>&1; then
    sha256_tool=shasum
    sha256() { shasum -a 256 <"$1" | cut -d ' ' -f 1; }
  elif command -v openssl >/dev/null 2>&1; then
    sha256_tool=openssl
    sha256() { openssl dgst -sha256 <"$1" | sed 's/^.*= *//'; }
  else
    fail "no SHA-256 tool to verify the download (sha256sum, shasum or openssl)"
  fi
  # A proxy, by the names curl reads and tokencli honours: https_proxy or HTTPS_PROXY (the former
  # first), no_proxy or NO_PROXY. wget reads only the lower-case names, and so is given them.
  if [ -z "${https_proxy-}" ] && [ -n "${HTTPS_PROXY-}" ]; then
    https_proxy=$HTTPS_PROXY
    export https_proxy
  fi
  if [ -z "${no_proxy-}" ] && [ -n "${NO_PROXY-}" ]; then
    no_proxy=$NO_PROXY
    export no_proxy
  fi
  # A mirror over plain http is on this machine, whose loopback no proxy reaches (curl and wget
  # would send it the requests all the same).
  if [ "$scheme" = http ]; then
    no_proxy=$mirror_host${no_proxy:+,$no_proxy}
    export no_proxy
  fi
  # The advice where only curl will do: with the CA certificates it needs over https, which a slim
  # container image has no more than curl.
  install_curl="install curl"
  [ "$scheme" != https ] || ! no_ca_certificates || install_curl="install curl and the ca-certificates package"
  proxy_credentials="the proxy answered 407 Proxy Authentication Required: give its user and password in https_proxy, as http://USER:PASSWORD@HOST:PORT"
  old_wget2=
  if command -v curl >/dev/null 2>&1; then
    # Given up on a connection not made in 30 s, or a transfer stalled (under a byte a second) for 30.
    # A redirect keeps to the protocols the base URL allows: never from https to plain http.
    download() {
      curl -fsSL --proto "$protocols" --proto-redir "$protocols" --connect-timeout 30 -y 30 -Y 1 \
        -w '%{http_code} %{http_connect}' -o "$2" "$1" >"$tmp/codes" 2>"$tmp/curl.log" && return 0
      curl_status=$?
      # The HTTP status of its last answer, for fetch; then a proxy's answer to its CONNECT, which
      # -f words as if the server had refused.
      codes=$(cat "$tmp/codes" 2>/dev/null) || codes=
      printf '%s\n' "${codes%% *}" >"$tmp/status"
      case $codes in *" 407")
        say "$proxy_credentials" >&2
        return 1
        ;;
      esac
      # Status 1, unsupported protocol: what curl says of a redirect --proto-redir refused, as if
      # curl itself lacked http.
      [ $curl_status = 1 ] && downgraded 'Protocol "http"' "$tmp/curl.log" || first_line <"$tmp/curl.log" >&2
      return 1
    }
  elif command -v wget >/dev/null 2>&1; then
    wget_version=$(wget --version 2>/dev/null || true)
    case $wget_version in
      # wget2 (Fedora's wget), told to keep to https when the base URL is: a redirect to plain http
      # is fetched over https, and fails where the server has none. Its -nv says nothing at all;
      # its default output (on stdout, beside -O's file) says why in its last line.
      *"GNU Wget2"*)
        case $wget_version in *"GNU Wget2 1."*) old_wget2=yes ;; esac
        download() {
          if [ "$scheme" = https ]; then set -- "$1" "$2" --https-enforce=hard; else set -- "$1" "$2"; fi
          # Its lock files into our temporary directory, which goes at the end.
          if TMPDIR=$tmp wget --tries=2 --timeout=30 ${3:+"$3"} -O "$2" "$1" >"$tmp/wget.log" 2>&1; then
            # Status 0 and no file: what wget2 1.99 (Debian 12's) does when it cannot connect.
            [ ! -f "$2" ] || return 0
            wget_status=0
          else
            wget_status=$?
          fi
          downgraded '^Adding URL: *http:' "$tmp/wget.log" && return 1
          # Its last line but the "[0] Downloading 'URL' ..." of each try, which says no reason.
          words=$(awk 'NF && !/^\[[0-9]+\] Downloading / { last = $0 } END { print last }' "$tmp/wget.log" |
            printable)
          if [ "$wget_status" = 0 ]; then
            # The same of an error answer other than a 404 (a 410, a 403, a 5xx): its status kept.
            keep_status "$words"
            say "wget: nothing downloaded${words:+: $words}" >&2
          else
            [ "$wget_status" != 8 ] || keep_status "$words"
            wget_failed "$wget_status" "$words"
          fi
          return 1
        }
        ;;
      # Two tries, not GNU wget's twenty, each given up after 30 s without data; -nv keeps the
      # reason of a failure, which -q would drop (busybox's wget says it anyway).
      *"GNU Wget"*)
        download() {
          if wget -nv -t 2 -T 30 -O "$2" "$1" 2>"$tmp/wget.log"; then wget_status=0; else wget_status=$?; fi
          if [ "$wget_status" != 0 ]; then
            # Its reason, if any, is its last line, after a timestamp: "... ERROR 404: Not Found."
            words=$(awk 'NF { last = $0 } END { sub(/^[0-9-]+ [0-9:]+ /, "", last); print last }' "$tmp/wget.log" |
              printable)
            case $words in *"Proxy Authentication Required"*)
              say "$proxy_credentials" >&2
              return 1
              ;;
            esac
            [ "$wget_status" != 8 ] || keep_status "$words"
            wget_failed "$wget_status" "$words"
            return 1
          fi
          # Its line "... URL:<where the file came from> ..." tells a redirect to plain http.
          ! downgraded 'URL: *http:' "$tmp/wget.log"
        }
        ;;
      # busybox's wget, which checks no TLS certificate where it has no openssl to hand the
      # connection to, and says so: a download from whoever answered, SHA256SUMS too, is refused.
      *)
        # -S: the answers' headers, whose Location tells a redirect to plain http. -Y off: never a
        # proxy. It would send an https URL to the one in http_proxy as a plain GET, in clear text
        # (it has no CONNECT), and take whatever came back, SHA256SUMS too; and it reads no no_proxy.
        download() {
          if wget -q -S -Yoff -O "$2" "$1" 2>"$tmp/wget.log"; then wget_status=0; else wget_status=$?; fi
          case $(cat "$tmp/wget.log") in
            *"validation not implemented"*)
              echo "this wget cannot verify the server's TLS certificate; $install_curl" >&2
              return 1
              ;;
          esac
          if [ "$wget_status" = 0 ]; then
            ! downgraded '^ *location: *http:' "$tmp/wget.log"
            return
          fi
          # Its own complaint, after the headers it was asked for; of an error answer, "wget: server
          # returned error: HTTP/1.1 404 Not Found", whose status is kept for fetch.
          words=$({ grep '^wget: ' "$tmp/wget.log" || cat "$tmp/wget.log"; } | first_line)
          if [ "$scheme" = https ] && proxy_set; then
            words="$words; busybox's wget takes no proxy (it would send https to one in clear text): $install_curl"
          fi
          say "$words" >&2
          sed -n 's|^wget: server returned error: HTTP/[0-9.]* \([0-9][0-9][0-9]\).*|\1|p' "$tmp/wget.log" >"$tmp/status"
          return 1
        }
        ;;
    esac
  else
    fail "neither curl nor wget is installed to download tokencli: $install_curl"
  fi

  check_install_dir
  remove_abandoned "${TMPDIR:-/tmp}" 'tokencli-install.??????'
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/tokencli-install.XXXXXX" 2>/dev/null) ||
    fail "cannot make a temporary directory in ${TMPDIR:-/tmp}"
  stage= man_stage= made=
  no_room_in_tmp="no room left in ${TMPDIR:-/tmp}, a full disk or a quota: set TMPDIR to a directory with room"
  trap 'rm -rf "$tmp"; [ -z "$stage" ] || rm -rf "$stage"; [ -z "$man_stage" ] || rm -rf "$man_stage"; unmake' EXIT
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 141' PIPE

  # SHA256SUMS not found, the first download: no release where the settings in effect point, the
  # one of them the user gave named.
  if [ -n "${TOKENCLI_DOWNLOAD_URL:-}" ]; then
    no_release="no release there; check TOKENCLI_DOWNLOAD_URL, the base URL of a release's files"
  elif [ -n "${TOKENCLI_VERSION:-}" ]; then
    no_release="no release $version there; check TOKENCLI_VERSION"
  else
    no_release="no release $version (this install.sh's) there; set TOKENCLI_VERSION to a released version"
  fi
  # SHA256SUMS: a line for each of a handful of files, under 1 KiB. The archives: about 44 MB
  # (linux-x64's goal is at most 45, docs/contract.md section 4; the other platforms' are alike), with
  # room to grow several times over before a release would need a newer install.sh.
  fetch SHA256SUMS 64 KiB "$no_release"
  any_sum "$tmp/SHA256SUMS" ||
    fail "$(shown "$base_url")/SHA256SUMS is no list of checksums: is TOKENCLI_DOWNLOAD_URL the base of a release's files?"
  # Looked up before the archive is downloaded: a platform with no release stops here.
  expected=$(expected_sum "$archive" "$tmp/SHA256SUMS")
  case $expected in
    "")
      listed=$(listed_version "${archive#tokencli-"$version"}" "$tmp/SHA256SUMS")
      # This version named, but on no line with a checksum: the list is damaged (below).
      [ -z "$listed" ] || [ "$listed" = "$version" ] ||
        fail "$(shown "$base_url") holds the files of tokencli $listed, not $version: set TOKENCLI_DOWNLOAD_URL and TOKENCLI_VERSION to the same release; nothing installed"
      fail "SHA256SUMS has no checksum for $archive: this release has no such file (or the list is damaged); $without_release" ;;
    *"
"*) fail "SHA256SUMS has more than one checksum for $archive; nothing installed" ;;
  esac
  # Not found, though SHA256SUMS lists it: a release (or a mirror's copy) with files missing.
  fetch "$archive" 256 MiB "the release there lacks this platform's archive ($os-$arch), though its SHA256SUMS lists it"
  # A tool that fails (its exit status lost in the pipe) prints no checksum, which is not the
  # archive's fault: said as what it is, in one line.
  actual=$(sha256 "$tmp/$archive" 2>"$tmp/sha256.log" | tr 'A-F' 'a-f')
  case $actual in
    *[!0-9a-f]* | "") actual= ;;
  esac
  if [ ${#actual} != 64 ]; then
    complaint=$(first_line <"$tmp/sha256.log")
    fail "$sha256_tool did not compute the SHA-256 of $archive${complaint:+ ($complaint)}; nothing installed"
  fi
  [ "$actual" = "$expected" ] || fail "checksum mismatch for $archive (expected $expected, got $actual); nothing installed"

  mkdir "$tmp/unpacked"
  # Unpacked from inside the directory: GNU tar reads escapes in -C's path (a TMPDIR with a
  # backslash).
  # The man page in the same pass (it lies after the executable in the archive); an archive
  # without one is unpacked again for the executable alone.
  if [ "$os" = win ]; then
    unpack_archive() { (CDPATH='' cd -- "$tmp/unpacked" && unzip -q "../$archive" "$program"); }
  else
    unpack_archive() {
      (CDPATH='' cd -- "$tmp/unpacked" && { tar -xzf "../$archive" "$program" tokencli.1 2>/dev/null ||
        tar -xzf "../$archive" "$program"; })
    }
  fi
  # GNU tar's words for a full disk are "Wrote only 4608 of 10240 bytes".
  unpack() {
    unpacked=$(unpack_archive 2>&1 >/dev/null) && return 0
    if no_room; then say "$no_room_in_tmp" >&2; else say "$unpacked" >&2; fi
    return 1
  }
  run "cannot unpack $archive" unpack
  # A regular file, not a link to one elsewhere on this system.
  [ -f "$tmp/unpacked/$program" ] && [ ! -L "$tmp/unpacked/$program" ] || fail "$archive holds no $program"

  check_install_dir
  # The directories mkdir -p is about to make, deepest first: removed again (when still empty) if
  # nothing gets installed.
  dir=$install_dir
  while [ -n "$dir" ] && [ ! -e "$dir" ] && [ ! -L "$dir" ]; do
    # Not a name mkdir makes: `a/b/` is a/b, `a/.` is a, and `a/b/..` too, each listed next.
    case ${dir##*/} in "" | . | ..) ;; *) made="$made$dir
" ;; esac
    case $dir in */*) dir=${dir%/*} ;; *) break ;; esac
  done
  run "cannot create $install_dir" mkdir -p -- "$install_dir"
  # Said by its absolute path: a relative one is no advice for PATH. (No CDPATH: cd would search it
  # for a relative name and print where it went.)
  install_dir=$(CDPATH='' cd -- "$install_dir" && pwd) || fail "cannot enter $install_dir"
  target=$install_dir/$program
  [ ! -d "$target" ] || fail "$target is a directory; nothing installed"
  remove_abandoned "$install_dir" '.tokencli.??????'
  # An npm install whose prefix is this directory's parent (~/.local, say) links tokencli here: npm
  # would remove this install with its package, or put its link back, so it is said.
  npm_link=
  if [ -L "$target" ]; then
    # What the link points to: ls -l's text after the link's own name (which may hold " -> " too).
    link=$(ls -l "$target" 2>/dev/null) || link=
    case ${link#*"$target -> "} in
      *node_modules/tokencli/*) npm_link=yes ;;
    esac
  fi
  # Copied beside the target, then renamed over it: a running tokencli is never half-written. The
  # copy goes into a directory of this run's own (mktemp: a name nobody could have made or linked
  # in advance, where the install directory is shared), keeps the program's name (Windows runs
  # only a name ending in .exe), and is removed on the way out unless the rename took it.
  stage=$(mktemp -d "$install_dir/.tokencli.XXXXXX" 2>"$tmp/mktemp.log") ||
    fail "cannot write to $install_dir ($(first_line <"$tmp/mktemp.log"))"
  staged=$stage/$program
  run "cannot write to $install_dir" cp "$tmp/unpacked/$program" "$staged"
  run "cannot install $target" chmod 755 "$staged"
  # Run once before it replaces anything: an executable this system cannot start (musl instead of
  # glibc, a glibc older than 2.28, a shared library missing) is refused rather than installed.
  if ! ran=$("$staged" --version 2>"$tmp/version.log"); then
    complaint=$(first_line <"$tmp/version.log")
    case $complaint in
      *"error while loading shared libraries: "*)
        library=${complaint#*error while loading shared libraries: }
        library=${library%%:*}
        case $library in
          libatomic.so.*) library="$library (Debian, Ubuntu: apt-get install libatomic1; Fedora, RHEL: dnf install libatomic)" ;;
        esac
        fail "the $os-$arch tokencli needs $library, which this system lacks; nothing installed"
        ;;
      *"Permission denied")
        fail "$install_dir does not let programs run (a noexec mount?); nothing installed ($complaint)"
        ;;
    esac
    fail "the $os-$arch tokencli does not run on this system (on Linux it needs glibc 2.28 or later); nothing installed${complaint:+ ($complaint)}"
  fi
  # The version asked for, not whatever the archive holds (a mirror's older release).
  [ "$ran" = "$version" ] || fail "the tokencli in $archive is not version $version; nothing installed"
  run "cannot install $target" mv -f "$staged" "$target"
  rmdir "$stage" 2>/dev/null || true
  stage= made=

  say "tokencli $version installed: $target"
  [ -z "$npm_link" ] ||
    say "it replaced npm's link to the tokencli package, so \`npm uninstall -g tokencli\` would remove it and \`npm install -g tokencli\` put the link back"
  # The man page, when the install directory is a <prefix>/bin: into <prefix>/share/man/man1, where
  # man finds it through PATH alone (man-db and macOS's man look in each PATH entry's
  # ../share/man). <prefix>/share must exist, but for the default ~/.local/bin: a fresh home has no
  # ~/.local/share yet. Copied aside and renamed over the name, so that a link there (an npm
  # install's page) is replaced, not written through. Where it cannot be put, it says so:
  # tokencli is installed either way.
  prefix=${install_dir%/bin}
  if [ "$os" != win ] && [ "$prefix" != "$install_dir" ] && [ -n "$prefix" ] &&
    [ -f "$tmp/unpacked/tokencli.1" ] && [ ! -L "$tmp/unpacked/tokencli.1" ]; then
    man_dir=$prefix/share/man/man1
    # Where the page is to be had once this run is over, which removes the downloaded archive.
    page_from=$(shown "$base_url")/$archive
    if [ -n "${HOME:-}" ] && [ "$prefix" -ef "$HOME" ] && [ ! -d "$prefix/share" ]; then
      # ~/bin: a ~/share would be made for the page alone, which no one keeps.
      say "no man page installed: for ~/bin there is no share/man to put it in; unpack tokencli.1 from $page_from into a directory of your MANPATH"
    elif [ ! -d "$prefix/share" ] && ! { [ -n "${HOME:-}" ] && [ "$prefix" -ef "$HOME/.local" ]; }; then
      say "no man page installed: $prefix/share is not a directory; make it and run install.sh again, or unpack tokencli.1 from $page_from"
    elif mkdir -p -- "$man_dir" 2>/dev/null && remove_abandoned "$man_dir" '.tokencli.??????' && man_stage=$(mktemp -d "$man_dir/.tokencli.XXXXXX" 2>/dev/null) &&
      cp "$tmp/unpacked/tokencli.1" "$man_stage/tokencli.1" 2>/dev/null && chmod 644 "$man_stage/tokencli.1" &&
      mv -f "$man_stage/tokencli.1" "$man_dir/tokencli.1" 2>/dev/null; then
      say "man page: $man_dir/tokencli.1"
    else
      say "no man page installed: $man_dir cannot be written; once it can, run install.sh again, or unpack tokencli.1 from $page_from"
    fi
    rm -rf "$man_stage"
    man_stage=
  fi
  found=$(command -v "$program" 2>/dev/null || true)
  if [ -n "$found" ] && [ "$found" -ef "$target" ]; then
    say "$install_dir is on your PATH: run tokencli --help"
  elif [ -n "$found" ]; then
    say "another tokencli comes first on your PATH ($found); run $target, or put $install_dir before it"
  else
    # The line to paste, with the home directory as $HOME, so that a profile shared between
    # machines keeps working.
    path_line=$(in_double_quotes "$install_dir")
    case $install_dir in
      "$home"/*) [ -z "$home" ] || path_line="\$HOME/$(in_double_quotes "${install_dir#"$home"/}")" ;;
    esac
    say "$install_dir is not on your PATH; add it in your shell's profile, e.g. export PATH=\"$path_line:\$PATH\""
  fi
  # Once tokencli is in place, where it now is: the directories mkdir -p made are nobody else's
  # (umask go-w), so only those that were there already can be open to others, and they are the
  # same before and after; said before, the warning would precede a refusal that must stay one line.
  # A warning, not a refusal: the user may know who else can write there. (Windows: no such modes.)
  if [ "$os" != win ]; then
    exposed_dir "$install_dir"
    # Its name as a terminal may show it, on one line: a link's target may be anyone's choosing.
    [ -z "$open" ] ||
      warn "$(printf '%s' "$open" | printable | tr '\n' ' ') can be written by other users, who could replace tokencli there; install into a directory only you can write (TOKENCLI_INSTALL_DIR)"
  fi
}

main "$@"
