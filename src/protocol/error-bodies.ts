/**
 * The three error-body shapes of the token service (docs/contract.md §1), built by the local service and
 * recognised by the client from these same definitions:
 *
 *   400  {"ErrorCode":"invalid_request","Error":"invalid or null consumer key: …","Hint":"…"}
 *   403  {"error":{"code":403,"message":"Credential provided is invalid. …","subcode":"017"}}
 *   4xx  {"error":"invalid_grant","error_description":"…"}             (RFC 6749 §5.2)
 */
import { removeControlCharacters } from '../text/sanitize.js';

/** A status and the JSON body to send with it. */
export interface ErrorBody {
  status: number;
  body: unknown;
}

/** Which of the three shapes a body has. */
export type ErrorShape = 'consumer_key' | 'platform' | 'oauth';

/** What a recognised error body says, its values as sent (the client sanitises them for display). */
export interface RecognisedError {
  shape: ErrorShape;
  /** `ErrorCode`, the 403 shape's `error.code`, or RFC 6749 `error`. */
  code: unknown;
  /** The 403 shape's `error.subcode` (`017` bad credentials, `018` concurrent session). */
  subcode?: unknown;
  /** `Error`, `error.message` (or `error.description`), or `error_description`. */
  description: unknown;
}

/** Subcodes of the 403 shape (docs/contract.md §1 rules 7 and 10). */
export const Subcode = { invalidCredentials: '017', sessionConflict: '018' } as const;

/** Echoed request values lose control characters and are cut short (a hostile value stays inert). */
export function echoValue(value: string, max = 200): string {
  const clean = removeControlCharacters(value);
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** RFC 6749 §5.2 error: `{"error": code, "error_description": text}`. */
export function oauthError(status: number, error: string, description: string): ErrorBody {
  return { status, body: { error, error_description: description } };
}

/** The platform's answer to a missing or unknown client id, the id echoed sanitised. */
export function consumerKeyError(clientId: string): ErrorBody {
  return {
    status: 400,
    body: {
      ErrorCode: 'invalid_request',
      Error: `invalid or null consumer key: ${echoValue(clientId)}`,
      Hint: "please ensure that you are passing the consumer key like so: 'client_id={consumer_key}'",
    },
  };
}

/** The platform's answer to bad user credentials: 403 subcode 017. */
export function invalidCredentialsError(): ErrorBody {
  return {
    status: 403,
    body: {
      error: {
        code: 403,
        message: 'Credential provided is invalid. or there was problem with your account.',
        subcode: Subcode.invalidCredentials,
      },
    },
  };
}

/** The platform's concurrent-session refusal: 403 subcode 018 (docs/contract.md §1 rule 10). */
export function sessionConflictError(): ErrorBody {
  return {
    status: 403,
    body: {
      error: {
        code: 403,
        message: 'Your session has been logged out as the same user is logged in elsewhere.',
        subcode: Subcode.sessionConflict,
      },
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Recognises one of the three shapes in a parsed JSON body, or returns undefined. */
export function recogniseErrorBody(json: unknown): RecognisedError | undefined {
  if (!isObject(json)) return undefined;
  if (typeof json.ErrorCode === 'string' || typeof json.Error === 'string') {
    return { shape: 'consumer_key', code: json.ErrorCode, description: json.Error };
  }
  if (isObject(json.error)) {
    const e = json.error;
    return { shape: 'platform', code: e.code, subcode: e.subcode, description: e.message ?? e.description };
  }
  if (typeof json.error === 'string') {
    return { shape: 'oauth', code: json.error, description: json.error_description };
  }
  return undefined;
}
