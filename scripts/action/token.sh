#!/usr/bin/env bash
# The action's token step (action.yml): a token from `tokencli token --format env`, masked, then
# written to the step's outputs (and GITHUB_ENV when asked). The inputs, the secrets among them,
# arrive only as environment variables of this one step (action.yml names them).
set -euo pipefail
# shellcheck source=failure.sh
. "$(dirname "$0")/failure.sh"
if [ -n "$TOKENCLI_ACTION_PROFILE" ]; then export TOKENCLI_PROFILE="$TOKENCLI_ACTION_PROFILE"; fi
# The token goes into a variable, not the log: `--format env` prints single-quoted
# assignments of TOKENCLI_ACCESS_TOKEN and TOKENCLI_TOKEN_EXPIRES_AT, read back by eval. Without
# colour, so that the error annotation of a failure is plain text.
export NO_COLOR=1
run_or_annotate "tokencli token" assignments \
  "$TOKENCLI_BIN" token --format env --min-ttl "$TOKENCLI_ACTION_MIN_TTL" </dev/null
eval "$assignments"
unset assignments TOKENCLI_PASSWORD TOKENCLI_CLIENT_SECRET
# Masked before anything else is printed or written.
echo "::add-mask::$TOKENCLI_ACCESS_TOKEN"
{
  echo "access-token=$TOKENCLI_ACCESS_TOKEN"
  echo "expires-at=$TOKENCLI_TOKEN_EXPIRES_AT"
} >> "$GITHUB_OUTPUT"
if [ "$TOKENCLI_ACTION_EXPORT_ENV" = "true" ]; then
  {
    echo "TOKENCLI_ACCESS_TOKEN=$TOKENCLI_ACCESS_TOKEN"
    echo "TOKENCLI_TOKEN_EXPIRES_AT=$TOKENCLI_TOKEN_EXPIRES_AT"
  } >> "$GITHUB_ENV"
fi
echo "tokencli: a token valid until $TOKENCLI_TOKEN_EXPIRES_AT is in steps.<id>.outputs.access-token" >&2
