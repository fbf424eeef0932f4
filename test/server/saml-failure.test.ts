/**
 * How the SAML grant answers a failure of the verifier: the verdicts of `verifySamlBearer` reach
 * the client as they are; anything else (a bug, a library surprise; no real request produces one
 * today, hence a unit test) is a generic invalid_grant and a log line without the error's text.
 */
import { describe, expect, test } from 'vitest';
import { SamlVerificationError } from '../../src/saml/index.js';
import { samlFailureReply, UNEXPECTED_FAILURE } from '../../src/server/grants/saml2-bearer.js';

describe('samlFailureReply', () => {
  test('a verification verdict is invalid_grant with its message, and is not logged', () => {
    const lines: string[] = [];
    const reply = samlFailureReply(
      new SamlVerificationError('the assertion Issuer is not the issuer registered for this application'),
      (line) => lines.push(line),
    );
    expect(reply).toEqual({
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description: 'the assertion Issuer is not the issuer registered for this application',
      },
    });
    expect(lines).toEqual([]);
  });

  test('any other error is a generic invalid_grant; the log names its class, never its text', () => {
    const lines: string[] = [];
    const leak = 'PHNhbWw6QXNzZXJ0aW9u secret-ish internals at line 3';
    const reply = samlFailureReply(new TypeError(leak), (line) => lines.push(line));
    expect(reply).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: UNEXPECTED_FAILURE },
    });
    expect(UNEXPECTED_FAILURE).toBe('the SAML assertion could not be verified');
    expect(lines).toEqual([
      'saml2-bearer: unexpected failure while verifying an assertion (TypeError); answered invalid_grant',
    ]);
  });

  test('a thrown non-error is handled the same way, and no log is fine', () => {
    expect(samlFailureReply('boom', undefined)).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: UNEXPECTED_FAILURE },
    });
  });
});
