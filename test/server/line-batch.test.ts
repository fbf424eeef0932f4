/** The request log's batching: every line, in order, in few writes, none left behind at shutdown. */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { lineBatch } from '../../src/server/http/line-batch.js';

describe('lineBatch', () => {
  test('a line after a quiet spell is written at once; those right after it go out together, in order', async () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text), { windowMs: 5 });
    batch.log('GET /a 200 0.1ms');
    expect(writes).toEqual(['GET /a 200 0.1ms\n']);
    batch.log('GET /b 404 0.2ms');
    batch.log('GET /c 200 0.1ms');
    expect(writes).toHaveLength(1);
    await sleep(30);
    expect(writes).toEqual(['GET /a 200 0.1ms\n', 'GET /b 404 0.2ms\nGET /c 200 0.1ms\n']);
    batch.log('GET /d 200 0.1ms');
    expect(writes.at(-1)).toBe('GET /d 200 0.1ms\n');
  });

  test('flush writes what is queued at once, and the window then writes nothing twice', async () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text), { windowMs: 60_000 });
    batch.log('one');
    batch.log('two');
    batch.log('three');
    batch.flush();
    expect(writes).toEqual(['one\n', 'two\nthree\n']);
    batch.flush();
    batch.log('four');
    expect(writes).toEqual(['one\n', 'two\nthree\n', 'four\n']);
    batch.flush();
  });

  test('a full window is written without waiting for its end', () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text), { windowMs: 60_000, maxChars: 10 });
    batch.log('first');
    batch.log('12345');
    expect(writes).toEqual(['first\n']);
    batch.log('67890');
    expect(writes).toEqual(['first\n', '12345\n67890\n']);
    batch.log('x');
    expect(writes).toEqual(['first\n', '12345\n67890\n', 'x\n']);
    batch.flush();
  });
});
