/**
 * The token endpoint answers from the body stream's event, not from a promise the router watches
 * (src/server/endpoints/token.ts): a bug in it must still answer 500 and be logged, not end the
 * process.
 */
import { type IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { ServiceContext } from '../../src/server/endpoints/context.js';
import { handleToken } from '../../src/server/endpoints/token.js';

/** A request with these headers whose body is `body`, as the HTTP server hands it over. */
function request(body: string): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, {
    method: 'POST',
    url: '/v2/oauth/token',
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
    },
  });
  stream.end(body);
  return stream as unknown as IncomingMessage;
}

function context(registry: unknown, lines: string[]): ServiceContext {
  return { registry, log: (line: string) => lines.push(line) } as unknown as ServiceContext;
}

async function answered(res: ServerResponse): Promise<void> {
  for (let i = 0; i < 50 && res.statusCode !== 500; i++) await new Promise((r) => setTimeout(r, 5));
}

describe('handleToken: a bug answers 500', () => {
  test('when the answer throws', async () => {
    const lines: string[] = [];
    const req = request('grant_type=client_credentials&client_id=x&client_secret=y');
    const res = new ServerResponse(req);
    const registry = {
      app: () => {
        throw new Error('boom');
      },
    };
    handleToken(req, res, context(registry, lines), '');
    await answered(res);
    expect(res.statusCode).toBe(500);
    expect(lines).toEqual(['internal error: boom']);
  });

  test('when a grant answers with a promise that fails', async () => {
    const lines: string[] = [];
    const req = request('grant_type=late&client_id=x&client_secret=y');
    const res = new ServerResponse(req);
    const app = { grantHandlers: new Map([['late', () => Promise.reject(new Error('late boom'))]]) };
    const registry = { app: () => app, clientSecretMatches: () => true };
    handleToken(req, res, context(registry, lines), '');
    await answered(res);
    expect(res.statusCode).toBe(500);
    expect(lines).toEqual(['internal error: late boom']);
  });
});
