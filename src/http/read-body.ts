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

/**
 * The chunks read so far, kept up to `limit` bytes: `add` keeps what fits of a chunk and says
 * whether the body went past the limit (the reader then stops and destroys it).
 */
class CappedChunks {
  readonly #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(readonly limit: number) {}

  add(chunk: Uint8Array): boolean {
    const room = this.limit - this.#size;
    this.#chunks.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
    this.#size += Math.min(chunk.byteLength, room);
    return chunk.byteLength > room;
  }

  result(tooLarge: boolean): BodyText {
    return { text: Buffer.concat(this.#chunks).toString('utf8'), tooLarge };
  }
}

function readEvents(body: EventBody, limit: number): Promise<BodyText> {
  return new Promise((resolve, reject) => {
    const chunks = new CappedChunks(limit);
    const settle = (outcome: () => void) => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      outcome();
    };
    const onData = (chunk: Uint8Array) => {
      if (!chunks.add(chunk)) return;
      settle(() => resolve(chunks.result(true)));
      body.destroy();
    };
    const onEnd = () => settle(() => resolve(chunks.result(false)));
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
  const chunks = new CappedChunks(limit);
  for await (const chunk of body) {
    if (chunks.add(chunk)) {
      body.destroy();
      return chunks.result(true);
    }
  }
  return chunks.result(false);
}
