/**
 * Answers written together once the event loop's current turn has handled every request it read,
 * rather than each one the moment it is ready.
 *
 * Under load, one turn reads many requests. Ended one by one, each answer is its own write, and
 * each write wakes its client (and, on one machine, the kernel's loopback path with it) while the
 * service goes on with the next request. Ended together at the end of the turn, the answers leave
 * in one burst, and a client waiting on several connections wakes once for several of them. Redis
 * writes its replies the same way, just before it next waits for events.
 *
 * The first answer of a turn is written at once: a lone request, the usual case on an idle
 * service, waits for nothing. Only the answers that follow it in the same turn wait for its end.
 */
import type { ServerResponse } from 'node:http';

let responses: ServerResponse[] = [];
let bodies: string[] = [];
/** Whether an answer was written in this turn (then `endQueued` is scheduled for its end). */
let answeredThisTurn = false;

function endQueued(): void {
  answeredThisTurn = false;
  const ending = responses;
  const texts = bodies;
  responses = [];
  bodies = [];
  for (let i = 0; i < ending.length; i++) {
    const res = ending[i] as ServerResponse;
    // One already ended (by a shutdown, say) is left alone; node ends one whose client has gone
    // without writing anything.
    if (!res.writableEnded) res.end(texts[i]);
  }
}

/** Ends `res` with `body`: now if it is this turn's first answer, else at the turn's end. */
export function endBatched(res: ServerResponse, body: string): void {
  if (!answeredThisTurn) {
    answeredThisTurn = true;
    setImmediate(endQueued);
    res.end(body);
    return;
  }
  responses.push(res);
  bodies.push(body);
}
