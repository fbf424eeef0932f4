/**
 * The `/_control/` endpoints, served only when the service starts with control on.
 *
 * Guards: with a control token, every request must present it as `Authorization: Bearer`
 * (compared in constant time); without one the service refuses to start unless bound to loopback
 * (see service.ts), where the Host check already stops DNS rebinding. A web page can still send a
 * "simple" cross-origin POST to 127.0.0.1 without asking (CORS only hides the answer), so requests
 * a browser marks as coming from a page (`Origin`, `Sec-Fetch-Site`) are refused, and a body must
 * be `Content-Type: application/json`, which no page can send without a preflight this service
 * never approves. Tools (curl, test code) send neither header.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { oauthError } from '../../protocol/error-bodies.js';
import { type JsonReply, NO_STORE, sendJson } from '../http/reply.js';
import { isAdvanceSeconds, MAX_ADVANCE_SECONDS } from './clock.js';
import type { FaultSpec } from './faults.js';
import type { RevokeRequest, ServiceControl } from './service-control.js';
import { asObject, ControlInputError, onlyKeys } from './validate.js';

export const CONTROL_PREFIX = '/_control/';
const MAX_CONTROL_BODY = 64 * 1024;

type Route = (control: ServiceControl, body: unknown) => JsonReply;

function clockReply(control: ServiceControl): JsonReply {
  return {
    status: 200,
    body: {
      time: new Date(control.clock.now()).toISOString(),
      clock_offset_seconds: control.clock.offsetSeconds,
    },
  };
}

/** A body, where one is sent to an action without parameters, is `{}`: checked as strictly as the rest. */
function takesNoKeys(body: unknown): void {
  onlyKeys(asObject(body, 'the body'), [], 'the body');
}

const ROUTES: Record<string, Record<string, Route>> = {
  clock: {
    GET: clockReply,
    POST: (control, body) => {
      const object = asObject(body, 'the body');
      onlyKeys(object, ['advance_seconds'], 'the body');
      const seconds = object.advance_seconds;
      if (!isAdvanceSeconds(seconds)) {
        throw new ControlInputError(
          'advance_seconds',
          `"advance_seconds" is required: a number from 0 to ${MAX_ADVANCE_SECONDS}`,
        );
      }
      control.clock.advance(seconds);
      return clockReply(control);
    },
  },
  revoke: {
    POST: (control, body) => ({ status: 200, body: { revoked: control.revoke(body as RevokeRequest) } }),
  },
  faults: {
    GET: (control) => ({ status: 200, body: { faults: control.interceptor.faults.list() } }),
    POST: (control, body) => {
      const added = control.fault(body as FaultSpec);
      return { status: 201, body: { added, pending: control.interceptor.faults.size } };
    },
    DELETE: (control, body) => {
      takesNoKeys(body);
      control.clearFaults();
      return { status: 200, body: { pending: 0 } };
    },
  },
  state: { GET: (control) => ({ status: 200, body: control.state() }) },
  reset: {
    POST: (control, body) => {
      takesNoKeys(body);
      control.reset();
      return { status: 200, body: { reset: true } };
    },
  },
};

/** A SHA-256 digest of the control token, so the comparison below is constant-time at any length. */
export function controlTokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function presentsToken(req: IncomingMessage, digest: Buffer): boolean {
  const match = /^bearer[ ]+(\S+)[ ]*$/i.exec(req.headers.authorization ?? '');
  return match !== null && timingSafeEqual(controlTokenDigest(match[1] as string), digest);
}

function isJson(contentType: string | undefined): boolean {
  const mediaType = (contentType ?? '').split(';')[0] ?? '';
  return mediaType.replace(/^[ \t]+|[ \t]+$/g, '').toLowerCase() === 'application/json';
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    req.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > MAX_CONTROL_BODY) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Answers a request under `/_control/`. */
export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  control: ServiceControl,
  tokenDigest: Buffer | undefined,
): Promise<void> {
  if (tokenDigest && !presentsToken(req, tokenDigest)) {
    return sendJson(
      res,
      {
        ...oauthError(
          401,
          'invalid_token',
          'the control API needs the control token as Authorization: Bearer',
        ),
        headers: { 'www-authenticate': 'Bearer realm="tokencli-control"' },
      },
      NO_STORE,
    );
  }
  if (req.headers.origin !== undefined || req.headers['sec-fetch-site'] !== undefined) {
    return sendJson(
      res,
      oauthError(403, 'forbidden', 'the control API does not answer requests from web pages'),
    );
  }
  const name = path.slice(CONTROL_PREFIX.length);
  const route = Object.hasOwn(ROUTES, name) ? ROUTES[name] : undefined;
  if (!route) {
    const names = Object.keys(ROUTES).map((n) => CONTROL_PREFIX + n);
    return sendJson(
      res,
      oauthError(404, 'not_found', `no such control endpoint; there are ${names.join(', ')}`),
    );
  }
  const method = req.method ?? '';
  const action = Object.hasOwn(route, method) ? route[method] : undefined;
  if (!action) {
    const allowed = Object.keys(route).join(', ');
    return sendJson(res, {
      ...oauthError(405, 'method_not_allowed', `use ${allowed}`),
      headers: { allow: allowed },
    });
  }
  let body: unknown = {};
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
  if (method !== 'GET' && hasBody) {
    if (!isJson(req.headers['content-type'])) {
      req.resume();
      return sendJson(res, {
        ...oauthError(
          415,
          'invalid_request',
          'a control request body must be Content-Type: application/json',
        ),
        headers: { connection: 'close' },
      });
    }
    const text = await readBody(req);
    if (text === undefined) {
      return sendJson(res, {
        ...oauthError(413, 'invalid_request', 'the control request body is larger than 64 KiB'),
        headers: { connection: 'close' },
      });
    }
    if (text.replace(/[ \t\r\n]/g, '') !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        return sendJson(res, oauthError(400, 'invalid_request', 'the body is not valid JSON'));
      }
    }
  }
  let reply: JsonReply;
  try {
    reply = action(control, body);
  } catch (error) {
    if (!(error instanceof ControlInputError)) throw error;
    const problem = oauthError(400, 'invalid_request', error.message);
    reply = { ...problem, body: { ...(problem.body as object), key: error.key } };
  }
  sendJson(res, reply, NO_STORE);
}
