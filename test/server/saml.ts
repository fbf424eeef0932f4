/**
 * The SSO side of the token-service tests: identity-provider keys, a configuration with an SSO
 * connection, and assertions built and signed with the project's own SAML code at the service's
 * (fake) clock.
 */
import { generateKeyPairSync } from 'node:crypto';
import { buildAssertion, signAssertion } from '../../src/saml/index.js';
import { demoServiceConfig, type SamlConfig, type ServiceConfig } from '../../src/server/index.js';
import { DEMO, type JsonResponse, postToken, type TestService } from './helpers.js';

export const SAML_GRANT = 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer';
export const IDP_ISSUER = 'https://idp.test.invalid';
export const SOLO = { email: 'solo@example.com', password: 'solo-password' } as const;

export interface KeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

function rsaKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The identity provider registered for the demo app. */
export const IDP_KEY = rsaKeyPair();
/** Another key: another application's identity provider, or an attacker's. */
export const OTHER_KEY = rsaKeyPair();

/** The demo configuration with an SSO connection (IDP_ISSUER, IDP_KEY) and a single-session user. */
export function ssoConfig(saml: Partial<SamlConfig> = {}): ServiceConfig {
  const config = demoServiceConfig({ issuer: IDP_ISSUER, certificate: IDP_KEY.publicKeyPem, ...saml });
  config.users.push({ ...SOLO, single_session: true });
  return config;
}

export interface AssertionOptions {
  email?: string;
  issuer?: string;
  /** Default: the service's base URL. */
  audience?: string;
  /** Default: IDP_KEY. */
  key?: KeyPair;
  lifetimeSeconds?: number;
  /** The assertion ID; default a random one. */
  id?: string;
  /** Extra XML put at the end of the assertion before signing (padding for size tests). */
  append?: string;
}

/** The XML of an assertion signed at the service's clock. */
export function signedAssertionXml(service: TestService, options: AssertionOptions = {}): string {
  let xml = buildAssertion({
    email: options.email ?? DEMO.email,
    issuer: options.issuer ?? IDP_ISSUER,
    audience: options.audience ?? service.baseUrl,
    now: new Date(service.clock.ms),
    lifetimeSeconds: options.lifetimeSeconds,
    id: options.id,
  });
  if (options.append !== undefined)
    xml = xml.replace('</saml:Assertion>', `${options.append}</saml:Assertion>`);
  return signAssertion(xml, { privateKeyPem: (options.key ?? IDP_KEY).privateKeyPem });
}

/** The base64 form value of a signed assertion. */
export function signedAssertion(service: TestService, options: AssertionOptions = {}): string {
  return Buffer.from(signedAssertionXml(service, options)).toString('base64');
}

/** A saml2-bearer token request by the demo client; `fields` holds SAMLAssertion/SAMLResponse. */
export function samlToken(
  baseUrl: string,
  fields: Record<string, string>,
  client: { id: string; secret: string } = { id: DEMO.clientId, secret: DEMO.clientSecret },
): Promise<JsonResponse> {
  return postToken(baseUrl, {
    grant_type: SAML_GRANT,
    client_id: client.id,
    client_secret: client.secret,
    ...fields,
  });
}
