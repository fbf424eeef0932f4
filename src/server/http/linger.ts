/**
 * Ending a response whose request body is still arriving (a 413 or 415 sent before the body was
 * read). Closing the connection at once makes the kernel reset it while the client is still
 * uploading, and a reset can discard the answer before the client reads it: the client sees
 * EPIPE or ECONNRESET instead of the JSON error. So the answer is written first, the rest of the
 * body is read and discarded, and the response is ended (the connection closed) when the body
 * is over — or after a bound on time and bytes, so that a client uploading for ever cannot keep
 * the connection.
 */
import type { ServerResponse } from 'node:http';

/** At most this much more of a refused body is read and discarded. */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;
/** At most this long is waited for a refused body to end. */
export const LINGER_MAX_MS = 3_000;

/** Writes `text` (headers already set) and ends the response once the request body is drained. */
export function endAfterDrainingBody(res: ServerResponse, text: string): void {
  const req = res.req;
  res.write(text);
  if (req.readableEnded || req.destroyed) {
    res.end();
    return;
  }
  let drained = 0;
  const finish = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', finish);
    req.off('close', finish);
    if (!res.writableEnded) res.end();
  };
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > LINGER_MAX_BYTES) finish();
  };
  const timer = setTimeout(finish, LINGER_MAX_MS);
  req.on('data', onData);
  req.on('end', finish);
  req.on('close', finish);
  req.resume();
}
