/**
 * The one point where injected faults and the `onTokenRequest` hook step in front of the
 * endpoints. The router calls it only while a fault is pending or a hook is set, so a
 * service without either runs exactly the code it ran before.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceContext } from '../endpoints/context.js';
import { answerToken } from '../endpoints/token.js';
import { readFormBody } from '../http/form-body.js';
import { parseParams } from '../http/params.js';
import { NO_STORE, sendJson } from '../http/reply.js';
import { replacesAnswer, sendFault } from './fault-reply.js';
import { type FaultEndpoint, FaultQueue, type FaultSpec } from './faults.js';

/** A create-token request as `onTokenRequest` sees it. */
export interface TokenRequest {
  /** `grant_type` as sent, or undefined. */
  grantType: string | undefined;
  /** Every parameter, from the query string and the form body (secrets included: it is your test). */
  params: Readonly<Record<string, string>>;
  /** The request's headers, lower-case names. */
  headers: IncomingHttpHeaders;
}

/** An answer that replaces the service's: a JSON body unless it is a string (sent as text). */
export interface TokenAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Called for each create-token request after the body is read and before the service answers.
 * Return an answer to send it instead, or undefined to let the service answer.
 */
export type TokenRequestHook = (
  request: TokenRequest,
) => TokenAnswer | undefined | Promise<TokenAnswer | undefined>;

type Handler = (req: IncomingMessage, res: ServerResponse, context: ServiceContext, query: string) => unknown;

const ENDPOINTS: Record<string, FaultEndpoint> = {
  '/v2/oauth/token': 'token',
  '/v2/oauth/tokeninfo': 'tokeninfo',
  '/v2/oauth/authorize': 'authorize',
};

export class Interceptor {
  readonly faults = new FaultQueue(() => this.#update());
  readonly #hook: TokenRequestHook | undefined;
  /**
   * Whether requests must pass through `handle`: a plain field the router reads per request, kept
   * up to date as faults come and go, so a service without faults or hook pays one property read.
   */
  active: boolean;
  /** Delayed answers not yet sent, with what ends their wait early (a close or a reset). */
  readonly #timers = new Map<NodeJS.Timeout, () => void>();

  constructor(hook?: TokenRequestHook) {
    this.#hook = hook;
    this.active = hook !== undefined;
  }

  #update(): void {
    this.active = this.faults.size > 0 || this.#hook !== undefined;
  }

  async handle(
    path: string,
    req: IncomingMessage,
    res: ServerResponse,
    context: ServiceContext,
    query: string,
    handler: Handler,
  ): Promise<void> {
    const endpoint = ENDPOINTS[path];
    if (endpoint !== 'token') {
      const fault = endpoint === undefined ? undefined : this.faults.take(endpoint, undefined);
      if (fault) await this.#answerFault(res, fault, () => handler(req, res, context, query));
      else await handler(req, res, context, query);
      return;
    }
    // The token endpoint's grant type may be in the body: read it once, here, for both.
    const form = await readFormBody(req);
    if (!form.ok) return sendJson(res, form.reply);
    const parsed = parseParams(query, form.text);
    const grantType = parsed.ok ? parsed.params.get('grant_type') : undefined;
    const answerNormally = async () => {
      const reply = answerToken(req, query, form.text, context);
      sendJson(res, reply instanceof Promise ? await reply : reply, NO_STORE);
    };
    const fault = this.faults.take('token', grantType);
    if (fault) return this.#answerFault(res, fault, answerNormally);
    if (this.#hook && parsed.ok) {
      const answer = await this.#hook({
        grantType,
        params: Object.fromEntries(parsed.params),
        headers: req.headers,
      });
      if (answer !== undefined) return sendHookAnswer(res, answer);
    }
    return answerNormally();
  }

  async #answerFault(res: ServerResponse, fault: FaultSpec, answerNormally: () => unknown): Promise<void> {
    if (fault.delay_ms) {
      const delay = fault.delay_ms;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          resolve();
        }, delay);
        this.#timers.set(timer, resolve);
      });
      if (res.destroyed) return;
    }
    if (replacesAnswer(fault)) sendFault(res, fault);
    else await answerNormally();
  }

  /** Forgets pending faults; delayed answers are sent now (or dropped, if the service closed). */
  clear(): void {
    this.faults.clear();
    for (const [timer, resolve] of this.#timers) {
      clearTimeout(timer);
      resolve();
    }
    this.#timers.clear();
  }
}

function sendHookAnswer(res: ServerResponse, answer: TokenAnswer): void {
  if (!Number.isInteger(answer.status) || answer.status < 100 || answer.status > 599) {
    throw new TypeError(
      `onTokenRequest: status must be an integer from 100 to 599, got ${String(answer.status)}`,
    );
  }
  if (typeof answer.body === 'string') {
    res.writeHead(answer.status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(answer.body),
      ...answer.headers,
    });
    res.end(answer.body);
    return;
  }
  if (answer.body === undefined) {
    res.writeHead(answer.status, { 'content-length': 0, ...answer.headers });
    res.end();
    return;
  }
  sendJson(res, { status: answer.status, body: answer.body, headers: answer.headers ?? {} }, NO_STORE);
}
