/** The request log's batching: every line, in order, in few writes, none left behind at shutdown. */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { lineBatch } from '../../src/server/http/line-batch.js';

describe('lineBatch', () => {
  test('lines of one moment go out in one write, in order, each with its newline', async () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text), { maxDelayMs: 5 });
    batch.log('GET /a 200 0.1ms');
    batch.log('GET /b 404 0.2ms');
    expect(writes).toEqual([]);
    await sleep(30);
    expect(writes).toEqual(['GET /a 200 0.1ms\nGET /b 404 0.2ms\n']);
    batch.log('GET /c 200 0.1ms');
    await sleep(30);
    expect(writes).toEqual(['GET /a 200 0.1ms\nGET /b 404 0.2ms\n', 'GET /c 200 0.1ms\n']);
  });

  test('flush writes what is queued at once, and the timer then writes nothing twice', async () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text), { maxDelayMs: 5 });
    batch.log('one');
    batch.flush();
    expect(writes).toEqual(['one\n']);
    batch.flush();
    await sleep(30);
    expect(writes).toEqual(['one\n']);
  });

  test('a full batch is written without waiting', () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text), { maxDelayMs: 60_000, maxChars: 10 });
    batch.log('12345');
    expect(writes).toEqual([]);
    batch.log('67890');
    expect(writes).toEqual(['12345\n67890\n']);
    batch.log('x');
    batch.flush();
    expect(writes).toEqual(['12345\n67890\n', 'x\n']);
  });
});
