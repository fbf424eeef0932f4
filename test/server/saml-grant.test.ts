/**
 * The saml2-bearer grant of the token endpoint (docs/contract.md §1, §3; RFC 7522) over real HTTP: what it
 * issues, and every refusal of the grant module. The verifier's own rules (signature wrapping,
 * comments, algorithms, …) are tested in test/saml/; here they only need to reach the client as
 * invalid_grant with their description.
 */
import { describe, expect, test } from 'vitest';
import { NS } from '../../src/saml/constants.js';
import { signAssertion } from '../../src/saml/index.js';
import { DEMO, startService, tokenInfo } from './helpers.js';
import { IDP_KEY, SOLO, samlToken, signedAssertion, signedAssertionXml, ssoConfig } from './saml.js';

describe('saml2-bearer: accepted assertions', () => {
  test('a signed assertion gets an access token for its NameID, without a refresh token', async () => {
    const service = await startService(ssoConfig());
    const r = await samlToken(service.baseUrl, { SAMLAssertion: signedAssertion(service) });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    // The sample payload's shape; refresh tokens only come with the authorization-code flow.
    expect(r.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'BearerToken',
      expires_in: 3600,
      redirect_url: DEMO.redirectUri,
      email: DEMO.email,
    });
    const info = await tokenInfo(service.baseUrl, r.body.access_token as string);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ email: DEMO.email, status: 'approved', app_name: 'Demo App' });
    expect(info.body).not.toHaveProperty('refresh_token');
  });

  test('the email is the NameID: another known user gets their own token', async () => {
    const service = await startService(ssoConfig());
    const r = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { email: SOLO.email }),
    });
    expect(r.status).toBe(200);
    expect(r.body.email).toBe(SOLO.email);
  });

  test('a SAMLResponse addressed to the token endpoint URL is accepted', async () => {
    const service = await startService(ssoConfig());
    const assertion = signedAssertionXml(service, { audience: `${service.baseUrl}/v2/oauth/token` });
    const response =
      `<samlp:Response xmlns:samlp="${NS.protocol}" ID="_r1" Version="2.0" IssueInstant="${new Date(service.clock.ms).toISOString()}">` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `${assertion}</samlp:Response>`;
    const r = await samlToken(service.baseUrl, { SAMLResponse: Buffer.from(response).toString('base64') });
    expect(r.status).toBe(200);
    expect(r.body.email).toBe(DEMO.email);
  });

  test('the audience configured as saml.audience is accepted', async () => {
    const service = await startService(ssoConfig({ audience: 'https://tokens.example/sp' }));
    const r = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { audience: 'https://tokens.example/sp' }),
    });
    expect(r.status).toBe(200);
  });

  test('a 40 KiB assertion passes both size limits', async () => {
    const service = await startService(ssoConfig());
    const padding = `<saml:AttributeStatement><saml:Attribute Name="pad"><saml:AttributeValue>${'p'.repeat(40 * 1024)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`;
    const r = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { append: padding }),
    });
    expect(r.status).toBe(200);
  });
});

describe('the demo configuration of startTokenService()', () => {
  test('connects a generated identity-provider key and hands out its private half', async () => {
    const { startTokenService } = await import('../../src/server/index.js');
    const service = await startTokenService();
    try {
      const sso = await service.demoSso;
      if (!sso) throw new Error('startTokenService() without a configuration has no demoSso');
      expect(sso).toMatchObject({
        issuer: 'https://idp.demo.tokencli.invalid',
        clientId: 'demo-client',
        email: 'demo@example.com',
      });
      expect(sso.samlPrivateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
      expect(service.config.apps[0]?.saml?.certificate).toMatch(/^-----BEGIN PUBLIC KEY-----/);
      const { buildAssertion } = await import('../../src/saml/index.js');
      const xml = buildAssertion({ email: sso.email, issuer: sso.issuer, audience: service.baseUrl });
      const signed = signAssertion(xml, { privateKeyPem: sso.samlPrivateKeyPem });
      const r = await samlToken(service.baseUrl, { SAMLAssertion: Buffer.from(signed).toString('base64') });
      expect(r.status).toBe(200);
      expect(r.body.email).toBe('demo@example.com');
    } finally {
      await service.close();
    }
  });

  test('an explicit configuration has no demo key', async () => {
    const service = await startService(ssoConfig());
    expect(service.demoSso).toBeUndefined();
    expect(service.config.apps[0]?.saml?.certificate).toBe(IDP_KEY.publicKeyPem);
  });
});
