import { describe, expect, it } from 'vitest';
import {
  isSecretName,
  REDACTED,
  redactForm,
  redactHeaders,
  redactText,
  redactUrl,
  scrubKnownSecrets,
} from '../../src/http/redact.js';

describe('isSecretName', () => {
  it.each([
    'client_secret',
    'password',
    'code',
    'code_verifier',
    'refresh_token',
    'access_token',
    'SAMLResponse',
    'SAMLAssertion',
    'Authorization',
    'id_token',
    'new_access_token',
    'api-secret',
    'Cookie',
  ])('%s is secret', (name) => expect(isSecretName(name)).toBe(true));

  it.each([
    'client_id',
    'grant_type',
    'token_type',
    'expires_in',
    'refresh_token_expires_in',
    'email',
    'redirect_uri',
    'state',
  ])('%s is not', (name) => expect(isSecretName(name)).toBe(false));
});

describe('redaction', () => {
  it('redacts form parameters by name, keeping the rest as written', () => {
    expect(
      redactForm(
        'grant_type=client_credentials&client_id=demo&client_secret=C1&email=a%40b&password=P%26W&endOtherSessions=True',
      ),
    ).toBe(
      `grant_type=client_credentials&client_id=demo&client_secret=${REDACTED}&email=a%40b&password=${REDACTED}&endOtherSessions=True`,
    );
    expect(redactForm('SAMLResponse=PHNh%2B&x')).toBe(`SAMLResponse=${REDACTED}&x`);
  });

  it('redacts URL queries, fragments and user info', () => {
    expect(redactUrl('https://u:pw@h.example/cb?code=abc&state=s1#access_token=t&x=1')).toBe(
      `https://${REDACTED}@h.example/cb?code=${REDACTED}&state=s1#access_token=${REDACTED}&x=1`,
    );
    expect(redactUrl('http://127.0.0.1:9/v2/oauth/tokeninfo?client_id=demo')).toBe(
      'http://127.0.0.1:9/v2/oauth/tokeninfo?client_id=demo',
    );
  });

  it('redacts secret headers, keeping the auth scheme', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer abc.def',
        'set-cookie': ['a=1', 'b=2'],
        'content-type': 'x',
        n: 5,
        u: undefined,
      }),
    ).toStrictEqual({
      authorization: `Bearer ${REDACTED}`,
      'set-cookie': REDACTED,
      'content-type': 'x',
      n: '5',
    });
    expect(redactHeaders({ location: 'https://x.example/cb?code=abc&state=1' })).toStrictEqual({
      location: `https://x.example/cb?code=${REDACTED}&state=1`,
    });
  });

  it('redacts JSON by structure at any depth', () => {
    const text = JSON.stringify({
      access_token: 'AT',
      token_type: 'BearerToken',
      nested: [{ refresh_token: 'RT', ok: 1 }],
      expires_in: 3599,
    });
    expect(JSON.parse(redactText(text))).toStrictEqual({
      access_token: REDACTED,
      token_type: 'BearerToken',
      nested: [{ refresh_token: REDACTED, ok: 1 }],
      expires_in: 3599,
    });
  });

  it('redacts broken JSON, HTML and prose by pattern', () => {
    expect(redactText('{"access_token":"AT\\"X","a":"b"')).toBe(`{"access_token":"${REDACTED}","a":"b"`);
    expect(redactText('<a href="/cb?code=XYZ&state=1">Authorization: Bearer abc-def=</a>')).toBe(
      `<a href="/cb?code=${REDACTED}&state=1">Authorization: Bearer ${REDACTED}</a>`,
    );
  });

  it('removes known secret values in every encoding, longest first', () => {
    const secret = 'pa ss+wörd/"x"';
    const text = [
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ a: secret }).toString(),
      JSON.stringify(secret),
    ].join(' | ');
    const out = scrubKnownSecrets(text, [secret]);
    expect(out).not.toContain('ss+w');
    expect(out).not.toContain('ss%2Bw');
    expect(out).toBe(`${REDACTED} | ${REDACTED} | a=${REDACTED} | "${REDACTED}"`);
  });

  it('does not scrub by value a secret too short to be one', () => {
    expect(scrubKnownSecrets('session', ['s', 'se', 'ses'])).toBe('session');
    expect(scrubKnownSecrets('a sess b', ['sess'])).toBe(`a ${REDACTED} b`);
  });

  it('keeps the parameters of a WWW-Authenticate challenge (not a credential)', () => {
    expect(
      redactHeaders({
        'www-authenticate': 'Bearer error="invalid_token", error_description="expired"',
        authorization: 'Bearer realm=',
      }),
    ).toEqual({
      'www-authenticate': 'Bearer error="invalid_token", error_description="expired"',
      authorization: `Bearer ${REDACTED}`,
    });
    expect(redactText('WWW-Authenticate: Bearer realm="tokens", scope="x"')).toBe(
      'WWW-Authenticate: Bearer realm="tokens", scope="x"',
    );
    // A credential that merely ends in padding is still one.
    expect(redactText('Authorization: Bearer abcdef=')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText('{"h":"Bearer errorx="}')).toBe(`{"h":"Bearer ${REDACTED}"}`);
  });
});
