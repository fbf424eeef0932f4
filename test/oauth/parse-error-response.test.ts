import { describe, expect, it } from 'vitest';
import { hintFor } from '../../src/cli/error-hints.js';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { ExitCode } from '../../src/errors.js';
import type { HttpResponse } from '../../src/http/request.js';
import { parseErrorResponse } from '../../src/oauth/parse-error-response.js';
import { readServiceJson } from '../../src/oauth/read-service-response.js';
import { type RequestContext, ServiceError } from '../../src/oauth/service-error.js';
import { GrantType } from '../../src/protocol/grants.js';

const TOKEN: RequestContext = {
  endpoint: 'token',
  grantType: GrantType.clientCredentials,
  clientId: 'demo-client',
  secrets: ['s3cret-canary', 'pw-canary'],
};

function response(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: text };
}

function fields(error: ServiceError) {
  return {
    status: error.status,
    serviceCode: error.serviceCode,
    subcode: error.subcode,
    description: error.description,
    exitCode: exitCodeOf(error),
    message: error.message,
    hint: hintFor(error),
  };
}

describe('parseErrorResponse: the shapes of docs/contract.md §1', () => {
  it('reads the unknown-client ErrorCode/Error/Hint body', () => {
    const error = parseErrorResponse(
      response(400, {
        ErrorCode: 'invalid_request',
        Error: 'invalid or null consumer key: XXXX',
        Hint: "please ensure that you are passing the consumer key like so: 'client_id={consumer_key}'",
      }),
      TOKEN,
    );
    expect(fields(error)).toStrictEqual({
      status: 400,
      serviceCode: 'invalid_request',
      subcode: undefined,
      description: 'invalid or null consumer key: XXXX',
      exitCode: ExitCode.refused,
      message:
        'the token service refused the request (HTTP 400, invalid_request): invalid or null consumer key: XXXX',
      hint: `check the client id "demo-client": it must be the application's consumer key (--client-id, TOKENCLI_CLIENT_ID or \`tokencli configure\`)`,
    });
  });

  it('reads subcode 017 (bad credentials)', () => {
    const error = parseErrorResponse(
      response(403, {
        error: {
          code: 403,
          message: 'Credential provided is invalid. or there was problem with your account.',
          subcode: '017',
        },
      }),
      TOKEN,
    );
    expect(fields(error)).toStrictEqual({
      status: 403,
      serviceCode: '403',
      subcode: '017',
      description: 'Credential provided is invalid. or there was problem with your account.',
      exitCode: ExitCode.refused,
      message:
        'the token service refused the request (HTTP 403, subcode 017): Credential provided is invalid. or there was problem with your account.',
      hint: 'check the email and password (--email or TOKENCLI_EMAIL, --password-stdin or TOKENCLI_PASSWORD)',
    });
  });

  it('reads subcode 018 (concurrent session) with the --end-other-sessions hint', () => {
    const error = parseErrorResponse(
      response(403, {
        error: {
          code: 403,
          message: 'Your session has been logged out as the same user is logged in elsewhere.',
          subcode: '018',
        },
      }),
      { ...TOKEN, grantType: GrantType.refreshToken },
    );
    expect(exitCodeOf(error)).toBe(ExitCode.refused);
    expect(error.subcode).toBe('018');
    expect(error.message).toBe(
      'the token service refused the request (HTTP 403, subcode 018): Your session has been logged out as the same user is logged in elsewhere.',
    );
    expect(hintFor(error)).toBe('run again with --end-other-sessions to end your other sessions');
  });

  it.each([
    [GrantType.refreshToken, 'the refresh token is invalid, expired or revoked; run `tokencli login`'],
    [
      GrantType.authorizationCode,
      'an authorization code is valid once and for 20 seconds; run `tokencli login` again',
    ],
    [
      GrantType.clientCredentials,
      'check the email and password (--email or TOKENCLI_EMAIL, --password-stdin or TOKENCLI_PASSWORD)',
    ],
  ])('reads RFC 6749 invalid_grant for %s with a grant-specific hint', (grantType, hint) => {
    const error = parseErrorResponse(
      response(400, { error: 'invalid_grant', error_description: 'the grant is not valid' }),
      { ...TOKEN, grantType },
    );
    expect(fields(error)).toStrictEqual({
      status: 400,
      serviceCode: 'invalid_grant',
      subcode: undefined,
      description: 'the grant is not valid',
      exitCode: ExitCode.refused,
      message: 'the token service refused the request (HTTP 400, invalid_grant): the grant is not valid',
      hint,
    });
  });

  it.each([
    ['invalid_client', 401, /check the client id and client secret/],
    [
      'unauthorized_client',
      400,
      /not enabled for the client credentials \(email and password\) grant; ask the platform operator/,
    ],
    ['unsupported_grant_type', 400, /not enabled for the client credentials/],
    ['invalid_scope', 400, /single scope/],
    ['invalid_request', 400, /--verbose/],
  ])('maps RFC 6749 %s to exit 3 and a hint', (code, status, hint) => {
    const error = parseErrorResponse(response(status, { error: code }), TOKEN);
    expect(exitCodeOf(error)).toBe(ExitCode.refused);
    expect(error.serviceCode).toBe(code);
    expect(error.description).toBeUndefined();
    expect(error.message).toBe(`the token service refused the request (HTTP ${status}, ${code})`);
    expect(hintFor(error)).toMatch(hint);
  });

  it('reads an invalid_token challenge from WWW-Authenticate on tokeninfo', () => {
    const error = parseErrorResponse(
      {
        status: 401,
        headers: {
          'www-authenticate': 'Bearer realm="x", error="invalid_token", error_description="token expired"',
        },
        body: '',
      },
      { endpoint: 'tokeninfo', clientId: 'demo-client', secrets: [] },
    );
    expect(fields(error)).toMatchObject({
      status: 401,
      serviceCode: 'invalid_token',
      description: 'token expired',
      exitCode: ExitCode.refused,
      message: 'the token service refused the request (HTTP 401, invalid_token): token expired',
      hint: 'the access token is invalid, expired or revoked; get a new one with `tokencli token --force` (the cache may hold it) or `tokencli login`',
    });
  });
});

describe('parseErrorResponse: anything else', () => {
  it('shows a short text snippet of an HTML 502 from a gateway, exit 5', () => {
    const html =
      '<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    const error = parseErrorResponse(response(502, html, { 'content-type': 'text/html' }), TOKEN);
    expect(fields(error)).toStrictEqual({
      status: 502,
      serviceCode: undefined,
      subcode: undefined,
      description: '502 Bad Gateway. nginx',
      exitCode: ExitCode.unavailable,
      message: 'the token service failed (HTTP 502): 502 Bad Gateway. nginx',
      hint: 'the token service is failing; try again later, or ask its operator',
    });
  });

  it("keeps a page's title where the page does not repeat it", () => {
    const page = (html: string) =>
      parseErrorResponse(response(503, html, { 'content-type': 'text/html' }), TOKEN).description;
    expect(page('<title>Maintenance</title><body><p>Back at 10:00 UTC</p></body>')).toBe(
      'Maintenance. Back at 10:00 UTC',
    );
    expect(page('<html><head><title>Service Unavailable</title></head><body></body></html>')).toBe(
      'Service Unavailable',
    );
  });

  it("reads a page's heading and paragraphs as sentences, cut at a sentence end", () => {
    const page = (html: string) =>
      parseErrorResponse(response(400, html, { 'content-type': 'text/html' }), TOKEN).description;
    // tokencli serve's page for an authorization request it cannot accept.
    expect(
      page(
        '<html><head><title>Cannot sign in</title><style>h1{x:y}</style></head><body><main><h1>Cannot sign in</h1>\n' +
          '<p class="error">No application is registered with client_id &quot;no-such-client&quot;.</p>\n' +
          "<p>The application sent an authorization request this service cannot accept. Close this\npage and check the application's client_id and redirect_uri.</p>" +
          '<footer>tokencli local token service</footer></main></body></html>',
      ),
    ).toBe(
      'Cannot sign in. No application is registered with client_id "no-such-client". The application sent an authorization request this service cannot accept.',
    );
    // Inline markup stays inside its sentence; a heading ending in a colon gets no period.
    expect(page('<h2>Error:</h2><p>the <b>client</b> is <a href="x">unknown</a></p>')).toBe(
      'Error: the client is unknown',
    );
  });

  it('cuts a long sentence at a word end, marked with …', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const description = parseErrorResponse(
      response(500, `<p>${words}</p>`, { 'content-type': 'text/html' }),
      TOKEN,
    ).description;
    expect(description?.length).toBeLessThanOrEqual(160);
    expect(description).toMatch(/^word0 word1 .* word\d+…$/);
    expect(words.startsWith(description?.slice(0, -1) ?? '-')).toBe(true);
    expect(words[(description?.length ?? 0) - 1]).toBe(' ');
  });

  it('caps the snippet of a long page', () => {
    const error = parseErrorResponse(
      response(500, `<p>${'a'.repeat(5000)}</p>`, { 'content-type': 'text/html' }),
      TOKEN,
    );
    expect(error.description?.length).toBe(160);
    expect(error.description?.endsWith('…')).toBe(true);
  });

  it('reports an empty body', () => {
    const error = parseErrorResponse(response(401, ''), TOKEN);
    expect(error.message).toBe('the token service refused the request (HTTP 401) with an empty body');
    expect(exitCodeOf(error)).toBe(ExitCode.refused);
    expect(hintFor(error)).toMatch(/client id and client secret/);
    const failed = parseErrorResponse(response(503, '  '), TOKEN);
    expect(failed.message).toBe('the token service failed (HTTP 503) with an empty body');
    expect(exitCodeOf(failed)).toBe(ExitCode.unavailable);
  });

  it('treats 404, 405, 408, 413 and 429 as failures (exit 5), not refusals', () => {
    for (const status of [404, 405, 408, 413, 429]) {
      expect(
        exitCodeOf(parseErrorResponse(response(status, 'nope', { 'content-type': 'text/plain' }), TOKEN)),
      ).toBe(ExitCode.unavailable);
    }
    expect(hintFor(parseErrorResponse(response(404, ''), TOKEN))).toMatch(/base URL/);
    expect(hintFor(parseErrorResponse(response(429, '', { 'retry-after': '120' }), TOKEN))).toBe(
      'the token service is busy or down; try again later (the service asks to wait 120 s)',
    );
  });

  it('shows the message of other JSON, and a snippet of JSON without one', () => {
    expect(parseErrorResponse(response(500, { message: 'database down' }), TOKEN).description).toBe(
      'database down',
    );
    expect(parseErrorResponse(response(500, [1, 2]), TOKEN).description).toBe('[1,2]');
    expect(parseErrorResponse(response(400, '{"'), TOKEN).description).toBe('{"');
  });

  it('removes control characters and escape sequences from service text', () => {
    const error = parseErrorResponse(
      response(400, {
        error: 'invalid_grant\u001b[2J',
        error_description: 'bad\u001b[31m red\u0007\r\nline\u009b',
      }),
      TOKEN,
    );
    expect(error.serviceCode).toBe('invalid_grant');
    expect(error.description).toBe('bad red line');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('never repeats a secret the request carried, even when the service echoes it', () => {
    const error = parseErrorResponse(
      response(400, {
        error: 'invalid_request',
        error_description: 'bad secret s3cret-canary for password=pw-canary and code=abc123',
      }),
      TOKEN,
    );
    expect(error.message).not.toContain('s3cret-canary');
    expect(error.message).not.toContain('pw-canary');
    expect(error.message).not.toContain('abc123');
    expect(error.description).toBe('bad secret [redacted] for password=[redacted] and code=[redacted]');
  });
});

describe('readServiceJson', () => {
  it('returns the JSON of a 2xx', () => {
    expect(readServiceJson(response(200, { a: 1 }), TOKEN)).toStrictEqual({ a: 1 });
  });

  it.each([
    ['{"', 'the body is not JSON (application/json, 2 characters): {"'],
    ['', 'the body is empty'],
    ['<html><body>Sign in</body></html>', 'the body is not JSON (application/json, 33 characters): Sign in'],
  ])('rejects the 200 body %j with exit 5', (body, problem) => {
    let error: unknown;
    try {
      readServiceJson(response(200, body), TOKEN);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect(exitCodeOf(error as ServiceError)).toBe(ExitCode.unavailable);
    expect((error as ServiceError).message).toBe(
      `the token service sent an unexpected response (HTTP 200): ${problem}`,
    );
  });

  it('treats a 200 carrying an error document as the refusal it is', () => {
    expect(() => readServiceJson(response(200, { error: 'invalid_grant' }), TOKEN)).toThrow(
      expect.objectContaining({ code: 'service_refused', serviceCode: 'invalid_grant', status: 200 }),
    );
  });

  it('reports a redirect with its target, secrets redacted, exit 5', () => {
    let error: ServiceError | undefined;
    try {
      readServiceJson(
        { status: 302, headers: { location: 'https://login.example/sso?code=abc&next=%2Fhome' }, body: '' },
        TOKEN,
      );
    } catch (e) {
      error = e as ServiceError;
    }
    expect(error && exitCodeOf(error)).toBe(ExitCode.unavailable);
    expect(error?.status).toBe(302);
    expect(error?.message).toBe(
      'the token service answered with a redirect (HTTP 302) to https://login.example/sso?code=[redacted]&next=%2Fhome; redirects are not followed so that credentials are never sent elsewhere',
    );
    expect(error && hintFor(error)).toMatch(/base URL/);
  });
});
