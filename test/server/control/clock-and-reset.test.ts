/**
 * The handle's clock and reset reach every part of the service: SAML validity windows
 * and the assertion replay cache as well as tokens; and bad arguments are TypeErrors.
 */
import { afterEach, expect, test } from 'vitest';
import { buildAssertion, signAssertion } from '../../../src/saml/index.js';
import { startTokenService, type TokenServiceHandle } from '../../../src/server/index.js';
import { DEMO, exchangeCode, obtainCode, postToken, refreshGrant } from '../helpers.js';
import { IDP_ISSUER, IDP_KEY, SAML_GRANT, ssoConfig } from '../saml.js';

let service: TokenServiceHandle | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

function assertionAt(baseUrl: string, now: Date): string {
  const xml = buildAssertion({
    email: DEMO.email,
    issuer: IDP_ISSUER,
    audience: baseUrl,
    now,
    lifetimeSeconds: 300,
  });
  return Buffer.from(signAssertion(xml, { privateKeyPem: IDP_KEY.privateKeyPem })).toString('base64');
}

function samlGrant(baseUrl: string, assertion: string) {
  return postToken(baseUrl, {
    grant_type: SAML_GRANT,
    client_id: DEMO.clientId,
    client_secret: DEMO.clientSecret,
    SAMLAssertion: assertion,
  });
}

test('an assertion valid now is expired once the clock moves past it; reset forgets its ID', async () => {
  service = await startTokenService(ssoConfig());
  const assertion = assertionAt(service.baseUrl, new Date(service.clock.now()));
  service.clock.advance(600);
  const late = await samlGrant(service.baseUrl, assertion);
  expect(late.status).toBe(400);
  expect(String(late.body.error_description)).toMatch(/expired|NotOnOrAfter|no longer valid/i);

  service.reset();
  expect((await samlGrant(service.baseUrl, assertion)).status).toBe(200);
  // Accepted once…
  expect((await samlGrant(service.baseUrl, assertion)).status).toBe(400);
  // …until a reset forgets the accepted IDs, as after a restart.
  service.reset();
  expect((await samlGrant(service.baseUrl, assertion)).status).toBe(200);
});

test('revoking a refresh token refuses it and the access tokens it produced', async () => {
  service = await startTokenService(ssoConfig());
  const { code } = await obtainCode(service.baseUrl);
  const issued = await exchangeCode(service.baseUrl, code);
  const refresh = issued.body.refresh_token as string;
  expect(service.revoke({ refresh_token: refresh })).toEqual({ access_tokens: 1, refresh_tokens: 1 });
  const r = await refreshGrant(service.baseUrl, refresh);
  expect(r.body.error).toBe('invalid_grant');
  expect(service.state().users[0]?.live_session).toBe(false);
});

test('bad arguments to the handle are TypeErrors naming the problem', async () => {
  service = await startTokenService(ssoConfig());
  expect(() => service?.clock.advance(-1)).toThrow(TypeError);
  expect(() => service?.clock.advance(Number.NaN)).toThrow(/seconds must be a number/);
  expect(() => service?.revoke({ email: 'nobody@example.com' })).toThrow(/no user "nobody@example.com"/);
  expect(() => service?.fault({ endpoint: 'token', status: 700 })).toThrow(/"status" must be an integer/);
  expect(service.clock.offsetSeconds).toBe(0);
});
