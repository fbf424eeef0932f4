/** Answers batched per turn of the event loop: the first at once, the rest together at the turn's end. */
import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { endBatched } from '../../src/server/http/answer-batch.js';
import { clientCredentials, startService, tokenInfo } from './helpers.js';

/** The two members of a response that endBatched uses, recording what it was ended with. */
function fakeResponse(): ServerResponse & { ended: string[] } {
  const ended: string[] = [];
  return {
    ended,
    get writableEnded() {
      return ended.length > 0;
    },
    end(body: string) {
      ended.push(body);
    },
  } as unknown as ServerResponse & { ended: string[] };
}

describe('endBatched', () => {
  test("a turn's first answer is ended at once, the later ones together at its end, in order", async () => {
    const [first, second, third] = [fakeResponse(), fakeResponse(), fakeResponse()];
    const order: string[] = [];
    for (const [res, name] of [
      [second, 'second'],
      [third, 'third'],
    ] as const) {
      const end = res.end.bind(res);
      res.end = ((body: string) => {
        order.push(name);
        return end(body);
      }) as typeof res.end;
    }
    endBatched(first, '{"n":1}');
    expect(first.ended).toEqual(['{"n":1}']);
    endBatched(second, '{"n":2}');
    endBatched(third, '{"n":3}');
    expect([second.ended, third.ended]).toEqual([[], []]);
    await nextTurn();
    expect([second.ended, third.ended]).toEqual([['{"n":2}'], ['{"n":3}']]);
    expect(order).toEqual(['second', 'third']);

    // A new turn: its first answer is again ended at once.
    const next = fakeResponse();
    endBatched(next, '{"n":4}');
    expect(next.ended).toEqual(['{"n":4}']);
    await nextTurn();
  });

  test('a waiting answer whose response was ended meanwhile (a shutdown) is not ended twice', async () => {
    const [first, waiting] = [fakeResponse(), fakeResponse()];
    endBatched(first, 'a');
    endBatched(waiting, 'b');
    waiting.end('ended elsewhere');
    await nextTurn();
    expect(waiting.ended).toEqual(['ended elsewhere']);
  });
});

describe('the service under concurrent requests', () => {
  test('each of many simultaneous requests gets its own answer', async () => {
    const service = await startService();
    const issued = await Promise.all(Array.from({ length: 12 }, () => clientCredentials(service.baseUrl)));
    const tokens = issued.map((response) => response.body.access_token as string);
    expect(new Set(tokens).size).toBe(12);
    // Valid and unknown tokens interleaved, all at once over separate connections: answers that
    // wait for the end of a turn must still each go to their own request.
    const asked = tokens.flatMap((token, i) => [token, `unknown-${i}`]);
    const answers = await Promise.all(asked.map((token) => tokenInfo(service.baseUrl, token)));
    answers.forEach((answer, i) => {
      if (i % 2 === 0) {
        expect(answer.status).toBe(200);
        expect(answer.body.access_token).toBe(asked[i]);
      } else {
        expect(answer.status).toBe(401);
      }
    });
  });
});
