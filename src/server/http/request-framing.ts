/**
 * Refusals about how a request is framed, before any endpoint sees it: several `Host` headers
 * (RFC 9112 §3.2: a server MUST answer 400), and the parse errors node's HTTP parser reports
 * through `clientError` (a request line and headers over node's 16 KiB limit, malformed HTTP),
 * which node itself would answer with a bare status line and no body. Every error of the service
 * is JSON; these are no exception.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { JsonReply } from './reply.js';

export const SEVERAL_HOSTS: JsonReply = {
  status: 400,
  body: {
    error: 'invalid_request',
    error_description: 'the request has more than one Host header (RFC 9112 §3.2)',
  },
  headers: { connection: 'close' },
};

/**
 * Whether the request carries several `Host` headers. Node keeps only the first in
 * `req.headers.host`, so the raw list is counted: a proxy and the service must not disagree on
 * which host was meant.
 */
export function hasSeveralHosts(req: IncomingMessage): boolean {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  return count > 1;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The JSON answer for a parse error of node's HTTP parser, or undefined when none can be sent. */
function clientErrorReply(error: NodeJS.ErrnoException): JsonReply {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        body: {
          error: 'invalid_request',
          error_description:
            'the request line and headers are larger than the 16 KiB accepted; send long values in a POST body',
        },
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        body: { error: 'invalid_request', error_description: 'the request took too long to arrive' },
      };
    default:
      return {
        status: 400,
        body: { error: 'invalid_request', error_description: 'the request is not well-formed HTTP/1.1' },
      };
  }
}

/**
 * The service's `clientError` listener: answers node's parse errors with a JSON body like every
 * other error, then closes the connection. A connection that is already gone is just destroyed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const reply = clientErrorReply(error);
  const text = JSON.stringify(reply.body);
  socket.end(
    `HTTP/1.1 ${reply.status} ${REASONS[reply.status] ?? 'Error'}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      'x-content-type-options: nosniff\r\n' +
      `content-length: ${Buffer.byteLength(text)}\r\n` +
      'connection: close\r\n\r\n' +
      text,
  );
}
