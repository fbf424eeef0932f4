# Sourced by the action's steps (scripts/action/install.sh, token.sh): a command whose failure the
# workflow's summary shows as an error annotation, not only as the step's exit code.

# The file holding a command's stderr while it runs; removed however the step ends.
held_stderr=""
trap '[ -z "$held_stderr" ] || rm -f "$held_stderr"' EXIT

# Runs COMMAND with its stdout kept in the variable named OUTPUT and its stderr held in a file
# under RUNNER_TEMP, logged once the command has ended. On failure it annotates WHAT with the line
# that says why (failure_reason, in the inputs' names: failure_inputs), and with `failure_context`
# when the step set one, and exits with the command's status, or with `failure_status` when the
# step set one. (The annotation goes to this step's stdout, which a $(...) would swallow.)
failure_context=""
# The status a failure ends the step with, where the step knows better than the command's own
# (an input the action cannot use: 2); empty for the command's.
failure_status=""
# VARIABLE=input pairs, space-separated: the environment variables through which the step hands
# inputs to a command, which the command's own words name (install.sh's TOKENCLI_DOWNLOAD_URL),
# where the workflow's author knows only the input (download-url).
failure_inputs=""
run_or_annotate() {
  local what=$1 output=$2 out status=0
  shift 2
  held_stderr=$(mktemp "${RUNNER_TEMP:-/tmp}/tokencli-action-stderr.XXXXXX")
  out=$("$@" 2>"$held_stderr") || status=$?
  printf -v "$output" '%s' "$out"
  if [ -s "$held_stderr" ]; then printf '%s\n' "$(<"$held_stderr")" >&2; fi
  if [ "$status" -ne 0 ]; then
    local reason
    reason=$(failure_reason "$held_stderr")
    local pair
    for pair in $failure_inputs; do
      reason=${reason//"${pair%%=*}"/"the input ${pair#*=}"}
    done
    # tokencli's hint names --ca-file, which an action user cannot pass: what a job can give instead.
    case $reason in
      *"TLS certificate of "*" is not trusted"*)
        failure_context="${failure_context:+$failure_context; }a CA of your network's own (a proxy that inspects TLS) goes in the job's env as NODE_EXTRA_CA_CERTS, a PEM file"
        ;;
    esac
    error_annotation "$what failed (exit $status)${reason:+: $reason}${failure_context:+; $failure_context}"
    exit "${failure_status:-$status}"
  fi
  rm -f "$held_stderr"
  held_stderr=""
}

# The line of FILE that says why a command failed: tokencli's `error:` line; else npm's first
# `npm error` line that is neither its code nor the pointer to its log; else the first line of a
# JavaScript exception (`Error: …`, `TypeError [CODE]: …`: a tokencli-path that crashed, such as
# a checkout never built); else the last line that is not blank (install.sh's one line), but not
# node's `Node.js vX` after a crash's stack.
failure_reason() {
  local line npm='' thrown='' last=''
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in
      'error: '*)
        printf '%s' "${line#'error: '}"
        return
        ;;
      'npm error code '* | 'npm error errno '* | 'npm error A complete log'* | 'npm error') ;;
      'npm error '*) [ -n "$npm" ] || npm=$line ;;
      *Error:\ * | *Error\ \[*\]:\ *)
        case ${line%%Error*} in *[!A-Za-z]*) ;; *) [ -n "$thrown" ] || thrown=$line ;; esac
        ;;
    esac
    case $line in
      'Node.js v'[0-9]*) ;;
      *[![:space:]]*) last=$line ;;
    esac
  done <"$1"
  printf '%s' "${npm:-${thrown:-$last}}"
}

# TEXT as a workflow command's data (::error::…, ::add-mask::…): the runner unescapes %25, %0D and
# %0A there, so %, CR and LF are given escaped.
command_data() {
  local text=$1
  text=${text//'%'/'%25'}
  text=${text//$'\r'/'%0D'}
  text=${text//$'\n'/'%0A'}
  printf '%s' "$text"
}

# The first line of TEXT (another program's words) as one line of printable characters: escape
# sequences go whole (CSI, OSC, and any other ESC with the character after it), then every other
# control character.
first_printable_line() {
  local line=${1%%$'\n'*}
  local sequence=$'\e''(\[[0-?]*[ -/]*[@-~]?|\][^'$'\a\e'']*('$'\a''|'$'\e''\\)?|.?)'
  while [[ $line =~ $sequence ]]; do
    line=${line/"${BASH_REMATCH[0]}"/}
  done
  printf '%s' "${line//[[:cntrl:]]/}"
}

# GitHub's error annotation.
error_annotation() {
  echo "::error::$(command_data "$1")"
}
