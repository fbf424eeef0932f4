#!/usr/bin/env bash
# The action's token step (action.yml): a token from `tokencli token --format env`, masked, then
# written to the step's outputs (and GITHUB_ENV when asked). The inputs, the secrets among them,
# arrive only as environment variables of this one step (action.yml names them).
# No trace of what follows, even where the job's SHELLOPTS asks for one: it would print the token
# before the runner masks it.
{ set +x; } 2>/dev/null
set -euo pipefail
# shellcheck source=failure.sh
. "$(dirname "$0")/failure.sh"
if [ -n "$TOKENCLI_ACTION_PROFILE" ]; then export TOKENCLI_PROFILE="$TOKENCLI_ACTION_PROFILE"; fi
# Said before any token is asked for: `True` or `yes` would otherwise export nothing, unseen, and a
# later step find no token.
case $TOKENCLI_ACTION_EXPORT_ENV in
  true | false) ;;
  *)
    error_annotation "export-env must be true or false, not '$(first_printable_line "$TOKENCLI_ACTION_EXPORT_ENV")'"
    exit 2
    ;;
esac
# The token goes into a variable, not the log: `--format env` prints the single-quoted
# assignments TOKENCLI_ACCESS_TOKEN='…' and TOKENCLI_TOKEN_EXPIRES_AT='…' (visible ASCII, no
# quote), read here by their form and never run: a tokencli-path that is some other program must
# not have its output run as shell code. Without colour, so that the error annotation of a
# failure is plain text.
export NO_COLOR=1
# A secret or variable the workflow does not have, as in a pull request from a fork, which gets no
# secrets, reaches this step as an empty input; tokencli can only say what it lacks in its own
# words, so a failure also names the inputs that were empty (each TOKENCLI_X is the input x).
empty=""
for variable in TOKENCLI_BASE_URL TOKENCLI_CLIENT_ID TOKENCLI_CLIENT_SECRET TOKENCLI_EMAIL TOKENCLI_PASSWORD; do
  if [ -z "${!variable:-}" ]; then
    # (tr, not ${x,,}: the bash of a self-hosted macOS runner may be 3.2.)
    input=$(printf '%s' "${variable#TOKENCLI_}" | tr 'A-Z_' 'a-z-')
    empty="$empty${empty:+, }$input"
  fi
done
if [ -n "$empty" ]; then
  failure_context="empty inputs: $empty (a secret or variable that is not set, or a pull request from a fork, which gets no secrets)"
fi
# tokencli names a setting by the variable or flag it came from (TOKENCLI_STORE: unknown store
# "x"); the workflow's author set an input.
failure_inputs="TOKENCLI_BASE_URL=base-url TOKENCLI_CLIENT_ID=client-id TOKENCLI_CLIENT_SECRET=client-secret"
failure_inputs="$failure_inputs TOKENCLI_EMAIL=email TOKENCLI_PASSWORD=password TOKENCLI_STORE=store"
failure_inputs="$failure_inputs TOKENCLI_PROFILE=profile --min-ttl=min-ttl"
run_or_annotate "tokencli token" assignments \
  "$TOKENCLI_BIN" token --format env --min-ttl "$TOKENCLI_ACTION_MIN_TTL" </dev/null
value="'([^'[:space:][:cntrl:]]+)'"
form="^TOKENCLI_ACCESS_TOKEN=$value"$'\n'"TOKENCLI_TOKEN_EXPIRES_AT=$value\$"
if ! [[ $assignments =~ $form ]]; then
  error_annotation "$TOKENCLI_BIN token --format env printed no token assignments (is it tokencli 0.1.0 or later?)"
  exit 1
fi
access_token=${BASH_REMATCH[1]} expires_at=${BASH_REMATCH[2]}
unset assignments TOKENCLI_PASSWORD TOKENCLI_CLIENT_SECRET
# Masked before anything else is printed or written; the runner unescapes a command's data
# (%25, %0D, %0A) before it masks it, so a % in the token is given as %25.
echo "::add-mask::$(command_data "$access_token")"
{
  echo "access-token=$access_token"
  echo "expires-at=$expires_at"
} >> "$GITHUB_OUTPUT"
if [ "$TOKENCLI_ACTION_EXPORT_ENV" = "true" ]; then
  {
    echo "TOKENCLI_ACCESS_TOKEN=$access_token"
    echo "TOKENCLI_TOKEN_EXPIRES_AT=$expires_at"
  } >> "$GITHUB_ENV"
fi
echo "tokencli: a token valid until $expires_at is in steps.<id>.outputs.access-token" >&2
