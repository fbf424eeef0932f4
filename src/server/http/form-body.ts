/**
 * Reads an `application/x-www-form-urlencoded` request body, the only body the service takes
 * (docs/contract.md §1), with the 64 KiB limit of docs/contract.md §3.
 */
import type { IncomingMessage } from 'node:http';
import { oauthError } from '../../protocol/error-bodies.js';
import type { JsonReply } from './reply.js';

export const MAX_BODY_BYTES = 64 * 1024;

export type FormBody = { ok: true; text: string } | { ok: false; reply: JsonReply };

const NO_BODY: FormBody = { ok: true, text: '' };

/**
 * 413; the connection is closed after it, once the rest of the body has been drained (within a
 * bound) so that a client still uploading reads the answer instead of a reset (linger.ts).
 */
function tooLarge(): FormBody {
  return {
    ok: false,
    reply: {
      ...oauthError(413, 'invalid_request', `the request body is larger than ${MAX_BODY_BYTES / 1024} KiB`),
      headers: { connection: 'close' },
      drainBody: true,
    },
  };
}

function isForm(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  const mediaType = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim();
  return mediaType.toLowerCase() === 'application/x-www-form-urlencoded';
}

/**
 * The body as text ('' when there is none). A body of another media type is refused with 415
 * rather than ignored: a client sending JSON would otherwise see baffling "missing parameter"
 * errors. Reading stops at the limit; the answer is then 413.
 */
export function readFormBody(req: IncomingMessage): Promise<FormBody> {
  return new Promise((resolve) => readFormBodyThen(req, resolve));
}

/**
 * `readFormBody` for the token endpoint, which is answered most: `done` is called with the body
 * (at once when there is none, or when it is refused by its headers), without a promise and a
 * turn of the microtask queue per request. `done` must not throw: it runs in a stream's event.
 */
export function readFormBodyThen(req: IncomingMessage, done: (body: FormBody) => void): void {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length === '0')) {
    done(NO_BODY);
    return;
  }
  if (!isForm(req.headers['content-type'])) {
    done({
      ok: false,
      reply: {
        ...oauthError(
          415,
          'invalid_request',
          'the request body must be application/x-www-form-urlencoded (RFC 6749 §4.1.3)',
        ),
        headers: { connection: 'close' },
        drainBody: true,
      },
    });
    return;
  }
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) {
    done(tooLarge());
    return;
  }

  const chunks: Buffer[] = [];
  let total = 0;
  const onData = (chunk: Buffer) => {
    total += chunk.length;
    if (total > MAX_BODY_BYTES) {
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause();
      done(tooLarge());
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    const text =
      chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
    done({ ok: true, text });
  };
  req.on('data', onData);
  req.on('end', onEnd);
  // A client that goes away mid-body gets no answer, and `done` is never called.
}
