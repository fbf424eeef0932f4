/**
 * readCappedBody reads node streams by their events and any other async iterable (a caller's own
 * transport) by iterating it; both ways give the same text, the same cut-off, and fail alike.
 */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCappedBody } from '../../src/http/read-body.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** An async iterable that is not a node stream, as a custom transport may return. */
function iterable(parts: string[]) {
  let destroyed = false;
  return {
    get destroyed() {
      return destroyed;
    },
    destroy() {
      destroyed = true;
    },
    async *[Symbol.asyncIterator]() {
      for (const part of parts) {
        if (destroyed) return;
        yield bytes(part);
      }
    },
  };
}

describe('readCappedBody', () => {
  it.each([
    ['a node stream', () => Readable.from([bytes('{"a":'), bytes('"é"}')])],
    ['another async iterable', () => iterable(['{"a":', '"é"}'])],
  ])('reads %s whole, as UTF-8 across chunks', async (_name, body) => {
    expect(await readCappedBody(body())).toEqual({ text: '{"a":"é"}', tooLarge: false });
  });

  it.each([
    ['a node stream', () => Readable.from([bytes('12345'), bytes('67890'), bytes('abc')])],
    ['another async iterable', () => iterable(['12345', '67890', 'abc'])],
  ])('cuts %s off at the limit, and stops reading it', async (_name, make) => {
    const body = make();
    expect(await readCappedBody(body, 7)).toEqual({ text: '1234567', tooLarge: true });
    expect(body.destroyed).toBe(true);
  });

  it('passes on a node stream’s error', async () => {
    const body = new PassThrough();
    const read = readCappedBody(body);
    body.write('{"half');
    body.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    await expect(read).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('fails on a node stream closed with neither an end nor an error, as its iterator would', async () => {
    const body = new PassThrough();
    const read = readCappedBody(body);
    body.write('{"half');
    body.destroy();
    await expect(read).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('leaves no listener behind on a stream it has read', async () => {
    const body = Readable.from([bytes('{}')]);
    await readCappedBody(body);
    for (const event of ['data', 'end', 'error', 'close']) expect(body.listenerCount(event)).toBe(0);
  });
});
