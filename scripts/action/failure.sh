# Sourced by the action's steps (scripts/action/install.sh, token.sh): a command whose failure the
# workflow's summary shows as an error annotation, not only as the step's exit code.

# Runs COMMAND with its stdout kept in the variable named OUTPUT and its stderr held in a file
# under RUNNER_TEMP, logged once the command has ended. On failure it annotates WHAT with the line
# that says why (tokencli's `error:` line, else the last line that is not blank) and exits with
# the command's status. (The annotation goes to this step's stdout, which a $(...) would swallow.)
run_or_annotate() {
  local what=$1 output=$2 errors out status=0
  shift 2
  errors=$(mktemp "${RUNNER_TEMP:-/tmp}/tokencli-action-stderr.XXXXXX")
  out=$("$@" 2>"$errors") || status=$?
  printf -v "$output" '%s' "$out"
  if [ -s "$errors" ]; then printf '%s\n' "$(<"$errors")" >&2; fi
  local reason
  reason=$(failure_reason "$errors")
  rm -f "$errors"
  if [ "$status" -ne 0 ]; then
    error_annotation "$what failed (exit $status)${reason:+: $reason}"
    exit "$status"
  fi
}

# The line of FILE that says why a command failed.
failure_reason() {
  local line reason=''
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in
      'error: '*)
        reason=${line#'error: '}
        break
        ;;
      *[![:space:]]*) reason=$line ;;
    esac
  done <"$1"
  printf '%s' "$reason"
}

# GitHub's error annotation: its message escaped as workflow commands require (%, CR, LF).
error_annotation() {
  local message=$1
  message=${message//'%'/'%25'}
  message=${message//$'\r'/'%0D'}
  message=${message//$'\n'/'%0A'}
  echo "::error::$message"
}
