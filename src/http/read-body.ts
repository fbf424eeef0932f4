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

export async function readCappedBody(body: ReadableBody, limit = MAX_RESPONSE_BYTES): Promise<BodyText> {
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
