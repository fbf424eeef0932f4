/**
 * The HTTP server of the local token service: routing, the Host check, logging, the purge timer,
 * start and clean shutdown.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { AUTHORIZE_PATH, TOKEN_PATH, TOKENINFO_PATH } from '../protocol/endpoints.js';
import { ReplayCache } from '../saml/replay-cache.js';
import type { ServiceConfig } from './config.js';
import { ServiceConfigError } from './config-error.js';
import { validateServiceConfig } from './config-validation.js';
import { demoServiceConfig } from './demo-config.js';
import { connectDemoSso, type DemoSso, generateDemoIdpKeyPair } from './demo-sso.js';
import { handleAuthorize } from './endpoints/authorize.js';
import type { ServiceContext } from './endpoints/context.js';
import { handleToken } from './endpoints/token.js';
import { handleTokenInfo } from './endpoints/tokeninfo.js';
import { createHostCheck, isLoopbackAddress } from './http/host-check.js';
import { splitTarget } from './http/params.js';
import { type JsonReply, sendJson } from './http/reply.js';
import { answerClientError, hasSeveralHosts, SEVERAL_HOSTS } from './http/request-framing.js';
import { loggedPath, logRequest } from './http/request-log.js';
import { Registry } from './registry.js';
import { TokenStore } from './token-store.js';

export interface TokenServiceOptions {
  /** Address to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Port; default 0, any free port. */
  port?: number;
  /** Host names admitted besides loopback ones while bound to loopback (`--allow-host`). */
  allowHosts?: string[];
  /** Receives one line per request (no secrets); default: no log. */
  log?: (line: string) => void;
  /** Clock in milliseconds; tests pass a fake one to expire codes and tokens. Default Date.now. */
  now?: () => number;
  /** How often expired codes and tokens are dropped; default 10 s. */
  purgeIntervalMs?: number;
}

export interface TokenServiceHandle {
  /** `http://HOST:PORT`, the IPv6 host in brackets. */
  baseUrl: string;
  /** The configuration in use, defaults filled in. */
  config: ServiceConfig;
  /** Stops listening, ends open connections and stops the timers. */
  close(): Promise<void>;
  /**
   * How many codes, tokens and accepted SAML assertion IDs are held (expired ones until the next
   * purge).
   */
  stats(): { codes: number; accessTokens: number; refreshTokens: number; samlAssertionIds: number };
  /**
   * Only when started without a configuration (the demo): resolves once the demo identity
   * provider's key pair is generated and its public key connected to the demo application, with
   * the private key to sign assertions with. Until then the SAML grant answers that no SSO
   * connection is set up. The key is made while the service already listens, so start-up does
   * not wait for it.
   */
  demoSso?: Promise<DemoSso>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, context: ServiceContext, query: string) => unknown;

const ROUTES: Record<string, Record<string, Handler>> = {
  [AUTHORIZE_PATH]: { GET: handleAuthorize, POST: handleAuthorize },
  [TOKEN_PATH]: { POST: handleToken },
  [TOKENINFO_PATH]: { GET: handleTokenInfo },
};

const NOT_FOUND: JsonReply = {
  status: 404,
  body: {
    error: 'not_found',
    error_description:
      'no such endpoint; the service has /v2/oauth/authorize, /v2/oauth/token and /v2/oauth/tokeninfo',
  },
};

const FORBIDDEN_HOST: JsonReply = {
  status: 403,
  body: {
    error: 'forbidden',
    error_description:
      'the Host header names neither a loopback address nor an allowed host; use localhost or 127.0.0.1, or start the service with --allow-host NAME',
  },
};

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new ServiceConfigError(`port ${port} on ${host} is already in use`, {
        reason: 'listen_in_use',
        cause: error,
      });
    case 'EACCES':
      return new ServiceConfigError(`no permission to listen on port ${port}`, {
        reason: 'listen_denied',
        cause: error,
      });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ServiceConfigError(`cannot listen on ${host}: not an address of this machine`, {
        reason: 'listen_not_local',
        cause: error,
      });
    default:
      return error;
  }
}

/**
 * Starts the local token service (SPEC.md §3) and resolves once it listens.
 *
 * @param config the configuration; validated (defaults filled in). Without one, the demo
 *   configuration with an SSO connection whose key pair is generated now (see `demoSso`); pass
 *   `demoServiceConfig()` for the demo without SSO
 * @throws ServiceConfigError for an invalid configuration or an address that cannot be bound
 */
export async function startTokenService(
  config?: ServiceConfig,
  options: TokenServiceOptions = {},
): Promise<TokenServiceHandle> {
  // Started first: it runs on the thread pool while the rest starts up.
  const demoKeyPair = config === undefined ? generateDemoIdpKeyPair() : undefined;
  // Whoever awaits `demoSso` hears of a failure; it is never an unhandled rejection.
  demoKeyPair?.catch(() => {});
  const checked = validateServiceConfig(config ?? demoServiceConfig());
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const clock = options.now ?? Date.now;
  const store = new TokenStore(
    {
      accessTokenTtl: checked.access_token_ttl,
      refreshTokenTtl: checked.refresh_token_ttl,
      codeTtl: checked.code_ttl,
    },
    clock,
  );
  const registry = new Registry(checked);
  const samlReplay = new ReplayCache({ now: clock });
  const log = options.log;
  const context: ServiceContext = {
    registry,
    store,
    scope: checked.scope,
    baseUrl: '', // set below, once the port is known and before any request is read
    samlReplay,
    clock,
    log,
  };
  let hostCheck: ((header: string | undefined) => boolean) | undefined;

  const server = createServer((req, res) => {
    const [path, query] = splitTarget(req.url ?? '/');
    const route = ROUTES[path];
    if (log) logRequest(req, res, loggedPath(path, route !== undefined), log);
    if (hasSeveralHosts(req)) return sendJson(res, SEVERAL_HOSTS);
    if (hostCheck && !hostCheck(req.headers.host)) return sendJson(res, FORBIDDEN_HOST);
    if (!route) return sendJson(res, NOT_FOUND);
    // HEAD is GET without the body (RFC 9110 §9.3.2); node leaves the body out by itself.
    const handler = route[req.method ?? ''] ?? (req.method === 'HEAD' ? route.GET : undefined);
    if (!handler) {
      const allowed = Object.keys(route).join(', ');
      return sendJson(
        res,
        { status: 405, body: { error: 'method_not_allowed', error_description: `use ${allowed}` } },
        { allow: allowed },
      );
    }
    Promise.resolve(handler(req, res, context, query)).catch((error: unknown) => {
      // A bug, not a client error: answer 500 without details and keep serving.
      if (!res.headersSent) {
        sendJson(res, { status: 500, body: { error: 'server_error', error_description: 'internal error' } });
      } else res.destroy();
      log?.(`internal error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });

  server.on('clientError', answerClientError);

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.off('error', onError);
      resolve();
    });
  });

  const address = server.address() as AddressInfo;
  // Only while bound to loopback: a service on 0.0.0.0 is reached by other names on purpose.
  if (isLoopbackAddress(address.address)) hostCheck = createHostCheck(options.allowHosts ?? []);
  const urlHost = isIP(host) === 6 ? `[${host}]` : host;
  context.baseUrl = `http://${urlHost}:${address.port}`;
  const timer = setInterval(() => {
    store.purgeExpired();
    samlReplay.purge();
  }, options.purgeIntervalMs ?? 10_000);
  timer.unref();

  const demoSso = demoKeyPair?.then((pair) => connectDemoSso(registry, checked, pair));
  demoSso?.catch(() => {});

  let closing: Promise<void> | undefined;
  return {
    baseUrl: context.baseUrl,
    config: checked,
    stats: () => ({ ...store.size(), samlAssertionIds: samlReplay.size }),
    ...(demoSso === undefined ? {} : { demoSso }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
