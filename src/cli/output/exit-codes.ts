/**
 * The exit code of an error (docs/contract.md §2.6), chosen here from its stable `code` and
 * `reason`: the layers below src/cli say what went wrong, the CLI says how the process ends.
 */
import type { ErrorCode, ErrorReason, TokencliError } from '../../errors.js';
import { ExitCode, type ExitCodeValue } from '../../errors.js';

const BY_CODE: Record<ErrorCode, ExitCodeValue> = {
  usage: ExitCode.usage,
  config: ExitCode.usage,
  not_logged_in: ExitCode.notLoggedIn,
  service_refused: ExitCode.refused,
  service_unavailable: ExitCode.unavailable,
  network: ExitCode.unavailable,
  login_incomplete: ExitCode.loginIncomplete,
  store: ExitCode.internal,
  lock: ExitCode.internal,
  interrupted: ExitCode.interrupted,
  internal: ExitCode.internal,
};

/** Reasons whose exit code is not their code's. */
const BY_REASON: Partial<Record<ErrorReason, ExitCodeValue>> = {
  // The keychain asked for cannot be had here: the choice is the user's to change (exit 2).
  keychain_unavailable: ExitCode.usage,
  // Nothing usable is stored that this session can reach.
  profile_store_unreachable: ExitCode.notLoggedIn,
};

export function exitCodeOf(error: TokencliError): ExitCodeValue {
  return (error.reason && BY_REASON[error.reason]) ?? BY_CODE[error.code];
}
