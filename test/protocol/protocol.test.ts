/**
 * One home for the wire protocol (src/protocol): what the local service builds, the client
 * recognises from the same definitions; one loopback rule; and `tokencli/server` loads no module
 * of the CLI.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseErrorResponse } from '../../src/oauth/parse-error-response.js';
import {
  consumerKeyError,
  type ErrorBody,
  invalidCredentialsError,
  oauthError,
  recogniseErrorBody,
  sessionConflictError,
} from '../../src/protocol/error-bodies.js';
import { GrantType } from '../../src/protocol/grants.js';
import { isLoopbackHost } from '../../src/protocol/loopback.js';
import { s256Challenge, verifierMatches } from '../../src/protocol/pkce.js';
import { sampleStrings } from '../helpers/sample-strings.js';

const SRC = resolve(import.meta.dirname, '../../src');
const context = { endpoint: 'token' as const, grantType: GrantType.clientCredentials, secrets: [] };

function asResponse(reply: ErrorBody) {
  return {
    status: reply.status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(reply.body),
  };
}

describe('error bodies', () => {
  it('are recognised by the client as the service builds them', () => {
    expect(parseErrorResponse(asResponse(consumerKeyError('app\u001b[2J')), context)).toMatchObject({
      status: 400,
      serviceCode: 'invalid_request',
      description: 'invalid or null consumer key: app[2J',
      context: { unknownClient: true },
    });
    expect(parseErrorResponse(asResponse(invalidCredentialsError()), context)).toMatchObject({
      status: 403,
      subcode: '017',
      code: 'service_refused',
    });
    expect(parseErrorResponse(asResponse(sessionConflictError()), context)).toMatchObject({ subcode: '018' });
    expect(parseErrorResponse(asResponse(oauthError(400, 'invalid_grant', 'used')), context)).toMatchObject({
      serviceCode: 'invalid_grant',
      description: 'used',
    });
  });

  it('recognises nothing in other JSON', () => {
    expect(recogniseErrorBody({ message: 'gateway' })).toBeUndefined();
    expect(recogniseErrorBody(['error'])).toBeUndefined();
    expect(recogniseErrorBody(null)).toBeUndefined();
  });
});

describe('PKCE S256', () => {
  it('matches the RFC 7636 Appendix B vector', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(s256Challenge(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifierMatches(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(verifierMatches(`${verifier}x`, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
  });
});

describe('the loopback rule', () => {
  it.each(['127.0.0.1', '127.0.0.2', '127.255.255.254', '[::1]', 'localhost'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['128.0.0.1', '127.0.0.256', '10.0.0.1', 'localhost.example', '[::2]', '0.0.0.0'])(
    '%s is not',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );

  it('takes IPv4 loopback as 127 and three more parts of one to three ASCII digits up to 255', () => {
    // What the rule was written as before it was written out, for any string at its edges.
    const stated = (host: string) => {
      const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
      return octets?.slice(1).every((o) => Number(o) <= 255) === true;
    };
    const hosts = [
      '127.0.0.1',
      '127.000.0.1',
      '127.0.0.0001',
      '127.0.0',
      '127.0.0.1.',
      '127..0.1',
      '0127.0.0.1',
    ];
    hosts.push('127.0.0.\u0663', '127.0.0.１', '127.0.0.1\n', '127.0.0.-1', '127.0.0.255', '127.0.0.25 ');
    for (const host of hosts) expect(isLoopbackHost(host), host).toBe(stated(host));
    for (const tail of sampleStrings(['1', '9', '0', '.', '5', 'x'], 6, 500)) {
      const host = `127.${tail}`;
      expect(isLoopbackHost(host), host).toBe(stated(host));
    }
  });

  it('is the same for a base URL and for opening a browser (127.0.0.2 passes both)', async () => {
    const { checkBaseUrl } = await import('../../src/session/settings.js');
    const { isSafeToOpen } = await import('../../src/login/open-browser.js');
    expect(checkBaseUrl('http://127.0.0.2:8080')).toBe('http://127.0.0.2:8080');
    expect(isSafeToOpen('http://127.0.0.2:8080/v2/oauth/authorize')).toBe(true);
    expect(() => checkBaseUrl('http://10.0.0.1')).toThrow(/plain http/);
    expect(isSafeToOpen('http://10.0.0.1/')).toBe(false);
  });
});

/** Every module reachable by static or dynamic relative import from `entry`. */
function moduleGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import\()\s*'(\.[^']+)\.js'/g)) {
      visit(join(dirname(file), `${match[1]}.ts`));
    }
  };
  visit(entry);
  return seen;
}

describe('tokencli/server', () => {
  it('loads no module of the CLI', () => {
    const graph = [...moduleGraph(join(SRC, 'server/index.ts'))].map((f) => relative(SRC, f));
    expect(graph.filter((f) => f.startsWith('cli/'))).toEqual([]);
    expect(graph).toContain('protocol/error-bodies.ts');
  });
});
