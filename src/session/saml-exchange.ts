/**
 * The saml2-bearer grant (docs/contract.md §1, §2.2; RFC 7522) with a prepared SAML document
 * (read, checked and signed by the caller): the exchange and the one save path.
 */
import type { GrantRequest } from '../oauth/types.js';
import { GrantType } from '../protocol/grants.js';
import type { TokenRecord } from '../store/types.js';
import { type Kept, keepRecord } from './kept.js';
import { toRecord } from './record-from-tokens.js';
import type { SecretSource } from './secret-source.js';
import type { Session } from './session.js';

export interface SamlDocument {
  field: 'SAMLResponse' | 'SAMLAssertion';
  /** Base64 of the XML. */
  value: string;
  /** The subject, when the caller built the assertion (the service may not echo it). */
  email?: string | undefined;
}

export async function exchangeSaml(
  session: Session,
  saml: SamlDocument,
  options: { endOtherSessions: boolean; save: boolean },
  secrets: SecretSource,
): Promise<{ record: TokenRecord } & Kept> {
  const tokens = await session.tokens();
  const clientSecret = await session.clientSecret(secrets);
  const { requestToken } = await import('../oauth/token-request.js');
  const grant: GrantRequest =
    saml.field === 'SAMLResponse'
      ? { grant_type: GrantType.saml2Bearer, SAMLResponse: saml.value }
      : { grant_type: GrantType.saml2Bearer, SAMLAssertion: saml.value };
  const response = await requestToken(await session.client(clientSecret), grant, {
    endOtherSessions: options.endOtherSessions,
    signal: session.signal,
  });
  const record = toRecord(response, { ...tokens.service, grant: 'saml2-bearer', now: session.now() });
  if (record.email === undefined && saml.email !== undefined) record.email = saml.email;
  if (session.signal.aborted) throw session.signal.reason;
  return { record, ...(await keepRecord(tokens, record, { save: options.save })) };
}
