/**
 * The saml2-bearer grant of the token endpoint (docs/contract.md §1, §3; RFC 7522) over real HTTP: every
 * refusal of the grant module (what it issues: saml-grant.test.ts). The verifier's own rules
 * (signature wrapping, comments, algorithms, …) are tested in test/saml/; here they only need to
 * reach the client as invalid_grant with their description.
 */
import { describe, expect, test } from 'vitest';
import { demoServiceConfig } from '../../src/server/index.js';
import { DEMO, startService, tokenInfo } from './helpers.js';
import { IDP_ISSUER, OTHER_KEY, SAML_GRANT, SOLO, samlToken, signedAssertion, ssoConfig } from './saml.js';

const SESSION_018 = {
  error: {
    code: 403,
    message: 'Your session has been logged out as the same user is logged in elsewhere.',
    subcode: '018',
  },
};

function invalidGrant(description: string) {
  return { error: 'invalid_grant', error_description: description };
}

describe('saml2-bearer: refusals', () => {
  test('both SAMLResponse and SAMLAssertion: invalid_request', async () => {
    const service = await startService(ssoConfig());
    const value = signedAssertion(service);
    const r = await samlToken(service.baseUrl, { SAMLResponse: value, SAMLAssertion: value });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_request',
      error_description: 'give exactly one of SAMLResponse or SAMLAssertion, not both',
    });
    // Refused before verification: the assertion is still good.
    expect((await samlToken(service.baseUrl, { SAMLAssertion: value })).status).toBe(200);
  });

  test('neither SAMLResponse nor SAMLAssertion: invalid_request', async () => {
    const service = await startService(ssoConfig());
    const r = await samlToken(service.baseUrl, {});
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_request',
      error_description:
        'SAMLResponse or SAMLAssertion (the base64 of the signed XML) is required for this grant_type',
    });
  });

  test('an application not enabled for the grant: unauthorized_client', async () => {
    const config = ssoConfig();
    if (config.apps[0]) config.apps[0].grants = ['authorization_code'];
    if (config.apps[0]) config.apps[0].refresh_tokens = false;
    const service = await startService(config);
    const r = await samlToken(service.baseUrl, { SAMLAssertion: signedAssertion(service) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'unauthorized_client',
      error_description: `this application is not enabled for grant_type ${SAML_GRANT}`,
    });
  });

  test('an application without an SSO connection (demoServiceConfig()): unauthorized_client', async () => {
    const service = await startService(demoServiceConfig());
    const r = await samlToken(service.baseUrl, { SAMLAssertion: signedAssertion(service) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'unauthorized_client',
      error_description:
        'no SSO connection is set up for this application: the service has no identity provider (saml issuer and certificate) registered for it',
    });
  });

  test('a verification failure is invalid_grant with the verifier’s description', async () => {
    const service = await startService(ssoConfig());
    const r = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { email: 'nobody@example.com' }),
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(invalidGrant('the assertion NameID is not a known user of this service'));
  });

  test('only the registered key counts: another application’s identity provider key is refused', async () => {
    const config = ssoConfig();
    const other = { ...(config.apps[0] as (typeof config.apps)[number]) };
    other.client_id = 'other-client';
    other.saml = { issuer: IDP_ISSUER, certificate: OTHER_KEY.publicKeyPem };
    config.apps.push(other);
    const service = await startService(config);
    const signedByOther = signedAssertion(service, { key: OTHER_KEY });
    const r = await samlToken(service.baseUrl, { SAMLAssertion: signedByOther });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(
      invalidGrant(
        'the assertion signature does not verify with the certificate registered for this application',
      ),
    );
    // The same assertion is good for the application whose key signed it.
    const mine = await samlToken(
      service.baseUrl,
      { SAMLAssertion: signedByOther },
      { id: 'other-client', secret: DEMO.clientSecret },
    );
    expect(mine.status).toBe(200);
  });

  test('a wrong audience is refused, naming the audiences this service answers to', async () => {
    const service = await startService(ssoConfig());
    const r = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { audience: 'https://other-service.example' }),
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(
      invalidGrant(
        `the assertion's Audience does not name this service; expected one of: ${service.baseUrl}, ${service.baseUrl}/v2/oauth/token`,
      ),
    );
  });

  test('an expired assertion is refused (the service’s clock, 60 s of skew)', async () => {
    const service = await startService(ssoConfig());
    const value = signedAssertion(service, { lifetimeSeconds: 300 });
    service.clock.advance(300 + 60);
    const r = await samlToken(service.baseUrl, { SAMLAssertion: value });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(
      invalidGrant('the assertion has expired (Conditions NotOnOrAfter has passed); get a fresh one'),
    );
  });

  test('an assertion is accepted once: the second request is refused', async () => {
    const service = await startService(ssoConfig());
    const value = signedAssertion(service);
    expect((await samlToken(service.baseUrl, { SAMLAssertion: value })).status).toBe(200);
    const again = await samlToken(service.baseUrl, { SAMLAssertion: value });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(
      invalidGrant('the assertion ID was already used; each assertion is accepted once'),
    );
  });

  test('assertion IDs are one-time per identity provider: two providers may use the same ID', async () => {
    const config = ssoConfig();
    const other = { ...(config.apps[0] as (typeof config.apps)[number]) };
    other.client_id = 'other-client';
    other.saml = { issuer: 'https://other-idp.invalid', certificate: OTHER_KEY.publicKeyPem };
    config.apps.push(other);
    const service = await startService(config);
    const ours = signedAssertion(service, { id: '_1' });
    const theirs = signedAssertion(service, {
      id: '_1',
      issuer: 'https://other-idp.invalid',
      key: OTHER_KEY,
    });
    expect((await samlToken(service.baseUrl, { SAMLAssertion: ours })).status).toBe(200);
    const r = await samlToken(
      service.baseUrl,
      { SAMLAssertion: theirs },
      { id: 'other-client', secret: DEMO.clientSecret },
    );
    expect(r.status).toBe(200);
    expect((await samlToken(service.baseUrl, { SAMLAssertion: ours })).status).toBe(400);
  });

  test('the same assertion sent concurrently is accepted exactly once', async () => {
    const service = await startService(ssoConfig());
    const value = signedAssertion(service);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => samlToken(service.baseUrl, { SAMLAssertion: value })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(7);
  });

  test('a single-session user gets 018; the same assertion then works with endOtherSessions=True', async () => {
    const service = await startService(ssoConfig());
    const first = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { email: SOLO.email }),
    });
    expect(first.status).toBe(200);
    const second = signedAssertion(service, { email: SOLO.email });
    const refused = await samlToken(service.baseUrl, { SAMLAssertion: second });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(SESSION_018);
    // Refused for the other session, not for the assertion: its ID was not spent.
    const ended = await samlToken(service.baseUrl, { SAMLAssertion: second, endOtherSessions: 'True' });
    expect(ended.status).toBe(200);
    expect((await tokenInfo(service.baseUrl, first.body.access_token as string)).status).toBe(401);
    expect((await tokenInfo(service.baseUrl, ended.body.access_token as string)).status).toBe(200);
  });

  test('an assertion whose base64 exceeds the 64 KiB body is refused with 413', async () => {
    const service = await startService(ssoConfig());
    const padding = `<saml:AttributeStatement><saml:Attribute Name="pad"><saml:AttributeValue>${'p'.repeat(50 * 1024)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`;
    const r = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { append: padding }),
    });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({
      error: 'invalid_request',
      error_description: 'the request body is larger than 64 KiB',
    });
  });

  test('accepted IDs are purged once their assertions expire', async () => {
    const service = await startService(ssoConfig(), { purgeIntervalMs: 20 });
    expect((await samlToken(service.baseUrl, { SAMLAssertion: signedAssertion(service) })).status).toBe(200);
    expect(service.stats().samlAssertionIds).toBe(1);
    // NotOnOrAfter (300 s) plus the 60 s of skew, and past the cache's once-a-second sweep.
    service.clock.advance(300 + 60 + 1);
    await expect.poll(() => service.stats().samlAssertionIds, { timeout: 10_000 }).toBe(0);
  });
});
