/**
 * How the service answers requests that are oddly framed at the HTTP level: several Host headers
 * (RFC 9112 §3.2), headers over node's limit (a JSON 431, not node's bare status line), a client
 * still uploading a body refused with 413, and HEAD on a GET endpoint (RFC 9110 §9.3.2).
 */
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { clientCredentials, DEMO, rawRequest, startService } from './helpers.js';

interface RawAnswer {
  text: string;
  /** The socket error seen, if any (EPIPE, ECONNRESET), and whether the answer came before it. */
  error?: string;
}

/** Sends `head` on a raw socket, then `body` chunk after chunk while the server lets us. */
function rawExchange(
  baseUrl: string,
  head: string,
  body?: { chunk: Buffer; times: number },
): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    let error: string | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => {
      text += data;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', () => resolve(error === undefined ? { text } : { text, error }));
    socket.write(head);
    if (!body) return;
    let sent = 0;
    const pump = () => {
      while (sent < body.times && !socket.destroyed) {
        sent += 1;
        if (!socket.write(body.chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (!socket.destroyed) socket.end();
    };
    pump();
  });
}

const jsonOf = (answer: RawAnswer) => JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4));

describe('request framing', () => {
  test('two Host headers: 400 (RFC 9112 §3.2)', async () => {
    const service = await startService();
    const { port } = new URL(service.baseUrl);
    const answer = await rawExchange(
      service.baseUrl,
      `GET /v2/oauth/tokeninfo?client_id=${DEMO.clientId} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(jsonOf(answer)).toEqual({
      error: 'invalid_request',
      error_description: 'the request has more than one Host header (RFC 9112 §3.2)',
    });
  });

  test('a 20 KB query gets a JSON 431 like every other error', async () => {
    const service = await startService();
    const r = await fetch(`${service.baseUrl}/v2/oauth/tokeninfo?client_id=${'a'.repeat(20_000)}`);
    expect(r.status).toBe(431);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await r.json()).toEqual({
      error: 'invalid_request',
      error_description:
        'the request line and headers are larger than the 16 KiB accepted; send long values in a POST body',
    });
  });

  test('malformed HTTP gets a JSON 400', async () => {
    const service = await startService();
    const answer = await rawExchange(
      service.baseUrl,
      'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n',
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(jsonOf(answer)).toEqual({
      error: 'invalid_request',
      error_description: 'the request is not well-formed HTTP/1.1',
    });
  });

  test('a client that keeps uploading an oversize body reads the 413, not a reset', async () => {
    const service = await startService();
    const { port } = new URL(service.baseUrl);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const times = 128; // 8 MiB: more than socket buffers hold, within the drain bound (16 MiB)
    const answer = await rawExchange(
      service.baseUrl,
      `POST /v2/oauth/token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${chunk.length * times}\r\n\r\n`,
      { chunk, times },
    );
    expect(answer.error).toBeUndefined();
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(jsonOf(answer)).toEqual({
      error: 'invalid_request',
      error_description: 'the request body is larger than 64 KiB',
    });
  });

  test('a client uploading without end is cut off after the drain bound', async () => {
    const service = await startService();
    const { port } = new URL(service.baseUrl);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const started = Date.now();
    const answer = await rawExchange(
      service.baseUrl,
      `POST /v2/oauth/token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${1024 ** 4}\r\n\r\n`,
      { chunk, times: 1024 ** 2 },
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer.error).toBeDefined();
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
  });

  test('HEAD on tokeninfo is answered like GET, without a body (not 405)', async () => {
    const service = await startService();
    const token = String((await clientCredentials(service.baseUrl)).body.access_token);
    const path = `/v2/oauth/tokeninfo?client_id=${DEMO.clientId}`;
    const ok = await rawRequest(service.baseUrl, path, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('');
    expect(ok.headers['content-type']).toBe('application/json; charset=utf-8');
    const missing = await rawRequest(service.baseUrl, path, { method: 'HEAD' });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
  });
});
