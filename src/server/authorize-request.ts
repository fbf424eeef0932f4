/**
 * Checks an authorization request (docs/contract.md §1 authorize parameters, RFC 6749 §4.1.1, RFC 7636
 * §4.3). A missing or unknown client or redirect URI becomes an error page, never a redirect: it
 * must not turn the service into an open redirector (RFC 6749 §4.1.2.1). Every later failure goes
 * back to the validated redirect URI with `error`, `error_description` and `state`, as §4.1.2.1
 * requires, so the client can tell its user.
 */

import { echoValue as sanitizeEcho } from '../protocol/error-bodies.js';
import { S256_CHALLENGE } from '../protocol/pkce.js';
import { type Params, parseFlag } from './http/params.js';
import { resolveRedirectUri } from './redirect-uri.js';
import type { AppEntry, Registry } from './registry.js';

/** An accepted authorization request. */
export interface AuthorizeRequest {
  app: AppEntry;
  /** Where the browser goes after the login: the request's URI or the registered one. */
  redirectUri: string;
  /** Whether the request named `redirect_uri` (then the code exchange must repeat it). */
  redirectUriGiven: boolean;
  state: string | undefined;
  codeChallenge: string | null;
  endOtherSessions: boolean;
  /** The request's own parameters, carried through the login form unchanged. */
  hidden: Array<[string, string]>;
}

/** A refusal to send back to the client's validated redirect URI (RFC 6749 §4.1.2.1). */
export interface AuthorizeErrorRedirect {
  redirectUri: string;
  error: 'invalid_request' | 'unauthorized_client' | 'unsupported_response_type' | 'invalid_scope';
  description: string;
  state: string | undefined;
}

export type AuthorizeCheck =
  | { ok: true; request: AuthorizeRequest }
  /** Shown as an error page: the client or its redirect URI is not known. */
  | { ok: false; message: string; redirect?: undefined }
  /** Sent back to the client: the request is bad, but its client and redirect URI are good. */
  | { ok: false; message: string; redirect: AuthorizeErrorRedirect };

/** The authorization parameters the login form carries; others are ignored (RFC 6749 §3.1). */
const CARRIED = [
  'client_id',
  'redirect_uri',
  'response_type',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'endOtherSessions',
] as const;

const quote = (value: string) => JSON.stringify(sanitizeEcho(value, 120));

export function checkAuthorizeRequest(params: Params, registry: Registry, scope: string): AuthorizeCheck {
  const fail = (message: string): AuthorizeCheck => ({ ok: false, message });
  const clientId = params.get('client_id');
  if (clientId === undefined) return fail('The request has no client_id.');
  const app = registry.app(clientId);
  if (!app) return fail(`No application is registered with client_id ${quote(clientId)}.`);
  const requested = params.get('redirect_uri');
  const redirectUri = resolveRedirectUri(requested, app.redirectUris);
  if (redirectUri === undefined) {
    return fail(`The redirect_uri ${quote(requested ?? '')} is not registered for ${app.name}.`);
  }
  const state = params.get('state');
  const back = (error: AuthorizeErrorRedirect['error'], description: string): AuthorizeCheck => ({
    ok: false,
    message: description,
    redirect: { redirectUri, error, description, state },
  });
  // The platform documents no response_type; standard clients send "code", the only one there is.
  const responseType = params.get('response_type');
  if (responseType !== undefined && responseType !== 'code') {
    return back(
      'unsupported_response_type',
      `response_type ${quote(responseType)} is not supported; only "code" is`,
    );
  }
  if (!app.grants.has('authorization_code')) {
    return back('unauthorized_client', 'this application is not enabled for the authorization-code flow');
  }
  const requestedScope = params.get('scope');
  if (requestedScope !== undefined && requestedScope !== scope) {
    return back(
      'invalid_scope',
      `scope ${quote(requestedScope)} is not supported; the only scope is ${quote(scope)}`,
    );
  }
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (challenge === undefined && method !== undefined) {
    return back('invalid_request', 'code_challenge_method was given without a code_challenge');
  }
  if (challenge !== undefined) {
    // RFC 7636 §4.3: without a method, "plain" is meant; plain is refused.
    if (method !== 'S256') {
      return back(
        'invalid_request',
        `code_challenge_method must be S256; ${quote(method ?? 'plain (the default)')} is not supported`,
      );
    }
    if (!S256_CHALLENGE.test(challenge)) {
      return back(
        'invalid_request',
        'code_challenge must be 43 base64url characters: BASE64URL(SHA256(code_verifier))',
      );
    }
  }
  const endOtherSessions = parseFlag(params.get('endOtherSessions'));
  if (endOtherSessions === undefined)
    return back('invalid_request', 'endOtherSessions must be True or False');

  const hidden: Array<[string, string]> = [];
  for (const name of CARRIED) {
    const value = params.get(name);
    if (value !== undefined) hidden.push([name, value]);
  }
  return {
    ok: true,
    request: {
      app,
      redirectUri,
      redirectUriGiven: requested !== undefined,
      state,
      codeChallenge: challenge ?? null,
      endOtherSessions,
      hidden,
    },
  };
}
