/**
 * grant_type=urn:ietf:params:oauth:client-assertion-type:saml2-bearer (docs/contract.md §1, §3; RFC 7522
 * §2.1, §3): a signed SAML assertion from the application's registered identity provider is
 * exchanged for an access token of the user its NameID names.
 *
 * The verifier (xml-crypto, @xmldom/xmldom) is loaded on the first SSO request, not when the
 * service starts: most runs of `tokencli serve` never see one.
 */
import { hash } from 'node:crypto';
import { oauthError } from '../../protocol/error-bodies.js';
import { SamlVerificationError } from '../../saml/errors.js';
import type { ReplayGuard } from '../../saml/replay-cache.js';
import { MAX_BODY_BYTES } from '../http/form-body.js';
import type { JsonReply } from '../http/reply.js';
import type { GrantContext, GrantHandler } from './grant.js';
import { beginSession } from './session-rule.js';
import { tokenResponse } from './token-response.js';

/**
 * The verifier's limit on the decoded XML: the largest document whose base64 fits in the token
 * endpoint's 64 KiB body (docs/contract.md §3), so the body limit (413) is the one that applies to form
 * values, and the verifier's (invalid_grant) is a backstop for values in the query string.
 */
export const MAX_SAML_XML_BYTES = (MAX_BODY_BYTES / 4) * 3;

type Verifier = typeof import('../../saml/verify.js');
let verifier: Promise<Verifier> | undefined;

function loadVerifier(): Promise<Verifier> {
  verifier ??= import('../../saml/verify.js');
  return verifier;
}

/**
 * The description sent for a failure that is not a verification verdict (a bug, a library
 * surprise): nothing of the error's text, which might quote the document or the library.
 */
export const UNEXPECTED_FAILURE = 'the SAML assertion could not be verified';

/**
 * The reply for an exception thrown while verifying: a `SamlVerificationError`'s message is
 * written for the integrator and sent as it is; anything else becomes a generic invalid_grant
 * and one log line naming only the error's class (the assertion is a bearer credential, and
 * messages of parser or crypto libraries may quote it).
 */
export function samlFailureReply(error: unknown, log: GrantContext['log']): JsonReply {
  if (error instanceof SamlVerificationError) {
    return oauthError(400, 'invalid_grant', error.message);
  }
  const kind = error instanceof Error ? error.name : typeof error;
  log?.(`saml2-bearer: unexpected failure while verifying an assertion (${kind}); answered invalid_grant`);
  return oauthError(400, 'invalid_grant', UNEXPECTED_FAILURE);
}

/**
 * The service's replay cache seen through one issuer: IDs are only unique per identity provider,
 * and hashing keeps every entry the same small size however long an ID is. Remembers the key it
 * recorded, so a request refused afterwards can give the ID back.
 */
class IssuerReplayGuard implements ReplayGuard {
  recorded: string | undefined;
  constructor(
    private readonly context: GrantContext,
    private readonly issuer: string,
  ) {}

  seen(id: string, expiresAt: number): boolean {
    const key = hash('sha256', `${this.issuer}\u0000${id}`, 'base64url');
    if (this.context.samlReplay.seen(key, expiresAt)) return true;
    this.recorded = key;
    return false;
  }
}

export const saml2BearerGrant: GrantHandler = async ({ app, params, endOtherSessions }, context) => {
  const response = params.get('SAMLResponse');
  const assertion = params.get('SAMLAssertion');
  if (response !== undefined && assertion !== undefined) {
    return oauthError(400, 'invalid_request', 'give exactly one of SAMLResponse or SAMLAssertion, not both');
  }
  if (response === undefined && assertion === undefined) {
    return oauthError(
      400,
      'invalid_request',
      'SAMLResponse or SAMLAssertion (the base64 of the signed XML) is required for this grant_type',
    );
  }
  const saml = app.config.saml;
  if (saml === undefined) {
    return oauthError(
      400,
      'unauthorized_client',
      'no SSO connection is set up for this application: the service has no identity provider (saml issuer and certificate) registered for it',
    );
  }

  let verify: Verifier['verifySamlBearer'];
  try {
    verify = (await loadVerifier()).verifySamlBearer;
  } catch (error) {
    return samlFailureReply(error, context.log);
  }
  // From here on everything is synchronous: concurrent requests with one assertion cannot both
  // pass the replay check, and nothing can end a session between the check and the token.
  const { registry, store, baseUrl } = context;
  const audiences = [baseUrl, `${baseUrl}/v2/oauth/token`];
  if (saml.audience !== undefined) audiences.push(saml.audience);
  const replay = new IssuerReplayGuard(context, saml.issuer);
  let email: string;
  try {
    ({ email } = verify((response ?? assertion) as string, {
      kind: response !== undefined ? 'SAMLResponse' : 'SAMLAssertion',
      // The registered key only (docs/contract.md §3): never a key the document carries.
      trust: { issuer: saml.issuer, publicKeyPem: saml.certificate },
      audiences,
      now: new Date(context.clock()),
      maxBytes: MAX_SAML_XML_BYTES,
      isKnownUser: (nameId) => registry.user(nameId) !== undefined,
      replay,
    }));
  } catch (error) {
    return samlFailureReply(error, context.log);
  }
  const user = registry.user(email);
  if (!user)
    return oauthError(400, 'invalid_grant', 'the assertion NameID is not a known user of this service');

  const refusal = beginSession(store, user, endOtherSessions);
  if (refusal) {
    // Refused for the user's other session, not for the assertion: it may come back with
    // endOtherSessions=True, which is what the 018 answer tells the client to do.
    if (replay.recorded !== undefined) context.samlReplay.forget(replay.recorded);
    return refusal;
  }
  // No refresh token: those come only with the authorization-code flow (docs/contract.md §1 rule 2).
  const [token, record] = store.issueAccessToken(app, user, null);
  return tokenResponse(store, token, record);
};
