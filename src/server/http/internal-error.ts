/** What the service does about its own bugs: answer 500 without details, log it, keep serving. */
import type { ServerResponse } from 'node:http';
import { sendJson } from './reply.js';

export function answerInternalError(
  res: ServerResponse,
  error: unknown,
  log: ((line: string) => void) | undefined,
): void {
  if (!res.headersSent) {
    sendJson(res, { status: 500, body: { error: 'server_error', error_description: 'internal error' } });
  } else res.destroy();
  log?.(`internal error: ${error instanceof Error ? error.message : String(error)}`);
}
