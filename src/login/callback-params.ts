/**
 * What the query of a redirect to the login listener means (RFC 6749 §4.1.2, §4.1.2.1), shared by
 * the loopback listener and the paste prompt so both judge a redirect the same way.
 */

import { TokencliError } from '../errors.js';
import { sanitizeText } from '../text/sanitize.js';
import { shortenText } from '../text/shorten.js';
import { stateMatches } from './pkce.js';

/** The outcome of one redirect. */
export type CallbackOutcome =
  /** The right state and a code: the flow is done. */
  | { kind: 'code'; code: string }
  /** The right state and `error=…`: the flow ends with this error. */
  | { kind: 'error'; error: TokencliError; description: string }
  /** No state, another login's state, or a forged request: ignore it and keep waiting. */
  | { kind: 'wrong-state' };

// RFC 6749 Appendix A.11: a code is VSCHARs (%x20-7E); it must not be empty. The length cap keeps
// a hostile page from making us hold megabytes.
const CODE_PATTERN = /^[\x20-\x7e]{1,4096}$/;

/** At most this much of the service's error text is kept (it is shown in the terminal and the tab). */
const MAX_DESCRIPTION = 300;

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

/**
 * Where error text from the redirect came from is not trustworthy: keep it short and printable,
 * whole escape sequences removed (the one sanitizer; removing only the ESC byte left `[31m`).
 */
function cleanText(text: string): string {
  const printable = sanitizeText(text).replace(/\t/g, ' ').trim();
  return shortenText(printable, MAX_DESCRIPTION);
}

/**
 * Judges the query of a redirect. Only a request carrying exactly one `state` equal to the
 * expected one counts (docs/contract.md §2.5); then `error` ends the flow (`access_denied`: exit 6, any
 * other error: exit 3), a well-formed `code` completes it, and anything else is the service's
 * malformed answer (exit 5).
 */
export function interpretCallback(params: URLSearchParams, expectedState: string): CallbackOutcome {
  if (!stateMatches(expectedState, single(params, 'state'))) return { kind: 'wrong-state' };

  const error = params.get('error');
  if (error !== null) {
    const code = cleanText(error) || 'unknown_error';
    const description = cleanText(params.get('error_description') ?? '');
    const detail = description === '' ? code : `${code}: ${description}`;
    if (code === 'access_denied') {
      return {
        kind: 'error',
        description: detail,
        // Whether the service said why is in `details`: without a reason the denial may not have
        // been a person's (a server may deny a request for no scope), and the CLI's hint says so.
        error: new TokencliError(`the login was not completed: access was denied (${detail})`, {
          code: 'login_incomplete',
          reason: 'access_denied',
          details: { description: description === '' ? undefined : description },
        }),
      };
    }
    return {
      kind: 'error',
      description: detail,
      error: new TokencliError(`the service refused the authorization request (${detail})`, {
        code: 'service_refused',
        hint: 'check the client id, and that the redirect URI is registered for the application',
      }),
    };
  }

  const code = single(params, 'code');
  if (code !== undefined && CODE_PATTERN.test(code)) return { kind: 'code', code };
  const why = code === undefined ? 'no single code' : 'a malformed code';
  return {
    kind: 'error',
    description: `the redirect carried ${why}`,
    error: new TokencliError(`the service redirected back with ${why} and no error`, {
      code: 'service_unavailable',
      hint: 'run `tokencli login` again; if it persists, the service is misbehaving',
    }),
  };
}
