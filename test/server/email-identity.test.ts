/**
 * One user, one spelling: a user is reached by their email with ASCII letters in
 * any case and XML white space around it — never through Unicode white space, format characters
 * or case folding beyond ASCII (U+00A0 suffix, U+FEFF prefix, Kelvin sign U+212A for K). The same
 * rule holds for the SAML NameID, the client-credentials grant and the login page.
 */
import { describe, expect, test } from 'vitest';
import { validateServiceConfig } from '../../src/server/config-validation.js';
import { demoServiceConfig, type ServiceConfig } from '../../src/server/index.js';
import { forbiddenEmailCharacter, lookupEmailKey } from '../../src/text/email-identity.js';
import { clientCredentials, DEMO, postLogin, startService, tokenInfo } from './helpers.js';
import { samlToken, signedAssertion, ssoConfig } from './saml.js';

const KATE = { email: 'kate@example.com', password: 'kate-password', single_session: false };
const JOERG = { email: 'jörg@example.com', password: 'joerg-password', single_session: false };

function config(): ServiceConfig {
  const c = ssoConfig();
  c.users.push({ ...KATE }, { ...JOERG });
  return c;
}

describe('the identity rule', () => {
  test('trims XML white space only and folds ASCII letters only', () => {
    expect(lookupEmailKey(' \t\r\nKate@Example.COM\n')).toBe('kate@example.com');
    expect(lookupEmailKey('\u212aate@example.com')).toBe('\u212aate@example.com');
    expect(lookupEmailKey('JÖRG@example.com')).toBe('jÖrg@example.com');
    expect(lookupEmailKey('kate@example.com\u00a0')).toBeUndefined();
    expect(lookupEmailKey('\ufeffkate@example.com')).toBeUndefined();
    expect(lookupEmailKey('ka\u200bte@example.com')).toBeUndefined();
    expect(lookupEmailKey('kate@example.com\u0085')).toBeUndefined();
    expect(forbiddenEmailCharacter('kate@example.com\u3000')).toBe('U+3000');
    expect(forbiddenEmailCharacter('jörg@example.com')).toBeUndefined();
  });
});

describe('SAML NameID', () => {
  test('ASCII case and XML white space reach the user', async () => {
    const service = await startService(config());
    for (const email of ['KATE@example.com', '\n  kate@EXAMPLE.com\t']) {
      const r = await samlToken(service.baseUrl, { SAMLAssertion: signedAssertion(service, { email }) });
      expect(r.status, email).toBe(200);
      const info = await tokenInfo(service.baseUrl, String(r.body.access_token));
      expect(info.body.email).toBe(KATE.email);
    }
  });

  test('a non-ASCII email matches exactly', async () => {
    const service = await startService(config());
    const ok = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { email: JOERG.email }),
    });
    expect(ok.status).toBe(200);
    const upper = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { email: 'jÖrg@example.com' }),
    });
    expect(upper.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the assertion NameID is not a known user of this service',
    });
  });

  test.each([
    ['a U+00A0 suffix', `${KATE.email}\u00a0`, 'U+00A0'],
    ['a U+FEFF prefix', `\ufeff${KATE.email}`, 'U+FEFF'],
    ['a zero-width space inside', 'ka\u200bte@example.com', 'U+200B'],
    ['an ideographic space suffix', `${KATE.email}\u3000`, 'U+3000'],
  ])('%s is refused with invalid_grant naming the character', async (_, email, named) => {
    const service = await startService(config());
    const r = await samlToken(service.baseUrl, { SAMLAssertion: signedAssertion(service, { email }) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: 'invalid_grant',
      error_description: `the assertion NameID contains ${named}, a control, format or non-ASCII white-space character; send the plain email address`,
    });
  });

  test('the Kelvin sign does not stand for K', async () => {
    const service = await startService(config());
    const r = await samlToken(service.baseUrl, {
      SAMLAssertion: signedAssertion(service, { email: '\u212aate@example.com' }),
    });
    expect(r.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the assertion NameID is not a known user of this service',
    });
  });
});

describe('client-credentials grant', () => {
  test.each([
    ['ASCII case', 'Kate@EXAMPLE.com', 200],
    ['XML white space around', ' kate@example.com\n', 200],
    ['a U+00A0 suffix', `${KATE.email}\u00a0`, 403],
    ['a U+FEFF prefix', `\ufeff${KATE.email}`, 403],
    ['the Kelvin sign', '\u212aate@example.com', 403],
  ])('%s → %i', async (_, email, status) => {
    const service = await startService(config());
    const r = await clientCredentials(service.baseUrl, { email, password: KATE.password });
    expect(r.status).toBe(status);
    if (status === 403) expect((r.body.error as { subcode: string }).subcode).toBe('017');
  });
});

describe('login page', () => {
  test.each([
    ['ASCII case', 'KATE@example.com', 302],
    ['a U+00A0 suffix', `${KATE.email}\u00a0`, 200],
    ['a U+FEFF prefix', `\ufeff${KATE.email}`, 200],
    ['the Kelvin sign', '\u212aate@example.com', 200],
  ])('%s → %i', async (_, email, status) => {
    const service = await startService(config());
    const r = await postLogin(
      service.baseUrl,
      { client_id: DEMO.clientId, response_type: 'code' },
      { email, password: KATE.password },
    );
    expect(r.status).toBe(status);
    if (status === 200) expect(await r.text()).toContain('The email or password is incorrect.');
  });
});

describe('configuration', () => {
  function withUsers(...emails: string[]): unknown {
    const json = JSON.parse(JSON.stringify(demoServiceConfig())) as Record<string, unknown>;
    json.users = emails.map((email) => ({ email, password: 'p' }));
    return json;
  }

  test('two emails that differ in ASCII case only are duplicates', () => {
    expect(() => validateServiceConfig(withUsers('Kate@example.com', 'kate@EXAMPLE.com'))).toThrow(
      'users[1].email: duplicate of users[0].email',
    );
  });

  test('an email differing beyond ASCII case is another user', () => {
    expect(validateServiceConfig(withUsers('jörg@example.com', 'jÖrg@example.com')).users).toHaveLength(2);
  });

  test('an email with a format character is refused', () => {
    expect(() => validateServiceConfig(withUsers('ka\u200bte@example.com'))).toThrow(
      'users[0].email: must not contain U+200B (a control, format or white-space character)',
    );
  });
});
