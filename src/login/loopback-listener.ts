/**
 * The loopback listener the browser is redirected to at the end of the login (docs/contract.md §2.5,
 * RFC 8252 §7.3). It binds only the loopback address of the redirect URI, refuses foreign `Host`
 * headers (DNS rebinding), answers everything but the redirect path with 404, ignores redirects
 * that do not carry this login's `state`, and hands the first good code to the flow while the
 * browser tab waits for the page that says how the login ended.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { InputError } from '../errors.js';
import { CALLBACK_PAGE_HEADERS, type CallbackPage, pages, renderCallbackPage } from './callback-page.js';
import { interpretCallback } from './callback-params.js';
import { allowedHosts, type LoopbackRedirect, withPort } from './redirect-uri.js';

/** A code that arrived with the right state; the browser tab waits for `respond`. */
export interface ReceivedCode {
  code: string;
  /** Ends the waiting browser request with this page. Resolves once the page is handed to the OS. */
  respond(page: CallbackPage): Promise<void>;
}

export interface LoopbackListenerOptions {
  redirect: LoopbackRedirect;
  expectedState: string;
  /** Told when a redirect is ignored (wrong state), so the terminal can say the flow still waits. */
  onIgnored?: ((reason: string) => void) | undefined;
  /** How long close() lets unfinished connections linger before destroying them. */
  closeGraceMs?: number | undefined;
}

/**
 * Error of a failed bind (docs/contract.md §2.5): reason `listen_failed`, with the address, the port and
 * the problem in `details` (the CLI words it in terms of the flag that chose the address).
 */
function bindError(error: NodeJS.ErrnoException, redirect: LoopbackRedirect): InputError {
  const where = `${redirect.bindAddress === '::1' ? '[::1]' : redirect.bindAddress}:${redirect.port}`;
  const problem =
    error.code === 'EADDRINUSE'
      ? 'the port is already in use'
      : error.code === 'EACCES'
        ? 'permission denied'
        : error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT'
          ? 'the address is not available on this machine'
          : error.message;
  return new InputError(
    `cannot listen on ${where} for the redirect URI: ${problem}`,
    'listen_failed',
    { where, port: redirect.port, problem, systemCode: error.code },
    error,
  );
}

export class LoopbackListener {
  /** The redirect URI with the port really bound; used in the authorize URL and the exchange. */
  readonly redirectUri: string;
  readonly port: number;

  readonly #server: Server;
  readonly #hosts: Set<string>;
  readonly #options: LoopbackListenerOptions;
  readonly #result: Promise<ReceivedCode>;
  #settle!: { resolve: (r: ReceivedCode) => void; reject: (e: unknown) => void };
  #settled = false;
  /** The browser request that brought the code, kept open until the flow knows the outcome. */
  #held: ServerResponse | undefined;
  #closing: Promise<void> | undefined;
  /** Open connections and how many requests each is answering right now. */
  readonly #sockets = new Map<Socket, number>();

  private constructor(server: Server, port: number, options: LoopbackListenerOptions) {
    this.#server = server;
    this.#options = options;
    this.port = port;
    this.redirectUri = withPort(options.redirect, port);
    this.#hosts = allowedHosts(options.redirect, port);
    this.#result = new Promise<ReceivedCode>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    // Nobody may be waiting yet when an error arrives; the rejection is still seen by waitForCode().
    this.#result.catch(() => {});
    server.on('connection', (socket: Socket) => {
      this.#sockets.set(socket, 0);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    server.on('request', (req, res) => {
      const socket = req.socket;
      this.#sockets.set(socket, (this.#sockets.get(socket) ?? 0) + 1);
      res.once('finish', () => {
        if (this.#sockets.has(socket)) this.#sockets.set(socket, (this.#sockets.get(socket) ?? 1) - 1);
      });
      this.#handle(req, res);
    });
  }

  /** Binds the redirect URI's loopback address and port (0 = any free port). */
  static async start(options: LoopbackListenerOptions): Promise<LoopbackListener> {
    const { redirect } = options;
    // A missing Host is refused by #route with the same 403 page as a foreign one.
    const server = createServer({ requireHostHeader: false });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => reject(bindError(error, redirect)));
      // Exactly the loopback address, never a wildcard; exclusive so no other process shares it.
      server.listen({ host: redirect.bindAddress, port: redirect.port, exclusive: true }, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new LoopbackListener(server, port, options);
  }

  /** Resolves with the first redirect carrying the right state and a code; rejects on `error=…`. */
  waitForCode(): Promise<ReceivedCode> {
    return this.#result;
  }

  /**
   * Stops listening. A browser request still held open is answered first (the response is always
   * ended before the listener closes, or the tab would spin); connections that linger past the grace
   * period are destroyed so the CLI never hangs on a keep-alive socket.
   */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    if (!this.#settled) {
      this.#settled = true;
      this.#settle.reject(new Error('the login listener was closed'));
    }
    if (this.#held && !this.#held.writableEnded) this.#send(this.#held, 503, pages.interrupted());
    this.#closing = new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.#server.closeAllConnections(), this.#options.closeGraceMs ?? 2000);
      timer.unref();
      this.#server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      // Browsers open spare connections they may never use (preconnect): nothing will come on them.
      // A socket whose answer was sent is already ending (Connection: close) and is left to finish.
      for (const [socket, active] of this.#sockets) {
        if (active === 0 && !socket.writableEnded) socket.destroy();
      }
    });
    return this.#closing;
  }

  #send(res: ServerResponse, status: number, page: CallbackPage, extra: Record<string, string> = {}): void {
    const body = renderCallbackPage(page);
    res.writeHead(status, {
      ...CALLBACK_PAGE_HEADERS,
      ...extra,
      'Content-Length': String(Buffer.byteLength(body)),
    });
    res.end(body);
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const answer = this.#route(req, res);
    if (answer) this.#send(res, answer.status, answer.page, answer.headers);
  }

  /** Decides the answer to one request; undefined when the response is held for the flow. */
  #route(
    req: IncomingMessage,
    res: ServerResponse,
  ): { status: number; page: CallbackPage; headers?: Record<string, string> } | undefined {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!this.#hosts.has(host)) return { status: 403, page: pages.forbiddenHost() };

    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://${host}`);
    } catch {
      return { status: 404, page: pages.notFound() };
    }
    if (url.pathname !== this.#options.redirect.path) return { status: 404, page: pages.notFound() };
    if (req.method !== 'GET') return { status: 405, page: pages.wrongMethod(), headers: { Allow: 'GET' } };
    if (this.#settled) return { status: 409, page: pages.alreadyDone() };

    const outcome = interpretCallback(url.searchParams, this.#options.expectedState);
    switch (outcome.kind) {
      case 'wrong-state':
        this.#options.onIgnored?.(
          'a redirect without the state of this login (an old tab, or a forged request)',
        );
        return { status: 400, page: pages.wrongState() };
      case 'error':
        this.#settled = true;
        this.#settle.reject(outcome.error);
        return { status: 400, page: pages.refused(outcome.description) };
      case 'code':
        this.#settled = true;
        this.#held = res;
        this.#settle.resolve({
          code: outcome.code,
          respond: (page) =>
            new Promise<void>((resolve) => {
              if (res.writableEnded) return resolve();
              res.once('finish', resolve).once('close', resolve);
              this.#send(res, page.ok ? 200 : 500, page);
            }),
        });
        return undefined;
    }
  }
}
