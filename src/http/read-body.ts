/**
 * Reads a response body up to a limit (docs/contract.md §2.4: bodies over 1 MiB are cut off and reported).
 * A token response is a few hundred bytes; anything near the cap is a wrong endpoint or a hostile
 * server, and must not grow the CLI's memory without bound.
 */

export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface BodyText {
  text: string;
  /** True when the body went past the limit and was cut off there. */
  tooLarge: boolean;
}

interface ReadableBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
}

/** A node stream (node's own response, undici's body): read by its events. */
interface EventBody extends ReadableBody {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * The body as text, cut off after `limit` bytes. A node stream is read by its events: its async
 * iterator builds node's end-of-stream machinery first, most of a millisecond of every `info`.
 * Any other async iterable (a transport of the caller's, HttpSettings.transport) is iterated.
 */
export function readCappedBody(body: ReadableBody, limit = MAX_RESPONSE_BYTES): Promise<BodyText> {
  return isEventBody(body) ? readEvents(body, limit) : readIterable(body, limit);
}

function isEventBody(body: ReadableBody): body is EventBody {
  const candidate = body as Partial<EventBody>;
  return typeof candidate.on === 'function' && typeof candidate.off === 'function';
}

function readEvents(body: EventBody, limit: number): Promise<BodyText> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      outcome();
    };
    const onData = (chunk: Uint8Array) => {
      if (size + chunk.byteLength > limit) {
        chunks.push(chunk.subarray(0, limit - size));
        settle(() => resolve({ text: decode(chunks), tooLarge: true }));
        body.destroy();
        return;
      }
      chunks.push(chunk);
      size += chunk.byteLength;
    };
    const onEnd = () => settle(() => resolve({ text: decode(chunks), tooLarge: false }));
    const onError = (error: Error) => settle(() => reject(error));
    // Closed with neither an end nor an error: what the async iterator reports then, too.
    const onClose = () =>
      settle(() =>
        reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })),
      );
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

async function readIterable(body: ReadableBody, limit: number): Promise<BodyText> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.byteLength > limit) {
      chunks.push(chunk.subarray(0, limit - size));
      body.destroy();
      return { text: decode(chunks), tooLarge: true };
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return { text: decode(chunks), tooLarge: false };
}

function decode(chunks: Uint8Array[]): string {
  return Buffer.concat(chunks).toString('utf8');
}
