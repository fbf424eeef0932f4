/**
 * The HTTP server of the local token service: routing, the Host check, logging, the purge timer,
 * start and clean shutdown.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUTHORIZE_PATH, TOKEN_PATH, TOKENINFO_PATH } from '../protocol/endpoints.js';
import { ReplayCache } from '../saml/replay-cache.js';
import type { ServiceConfig } from './config.js';
import { ServiceConfigError } from './config-error.js';
import { validateServiceConfig } from './config-validation.js';
import { AdjustableClock, type ServiceClock } from './control/clock.js';
import { CONTROL_PREFIX, controlTokenDigest, handleControl } from './control/control-api.js';
import type { FaultSpec } from './control/faults.js';
import { Interceptor, type TokenRequestHook } from './control/intercept.js';
import {
  type RevokeRequest,
  type RevokeResult,
  ServiceControl,
  type ServiceState,
} from './control/service-control.js';
import { demoServiceConfig } from './demo-config.js';
import { connectDemoSso, type DemoSso, generateDemoIdpKeyPair } from './demo-sso.js';
import { handleAuthorize } from './endpoints/authorize.js';
import type { ServiceContext } from './endpoints/context.js';
import { handleToken } from './endpoints/token.js';
import { handleTokenInfo } from './endpoints/tokeninfo.js';
import { createHostCheck, isLoopbackAddress } from './http/host-check.js';
import { answerInternalError } from './http/internal-error.js';
import { splitTarget } from './http/params.js';
import { type JsonReply, sendJson } from './http/reply.js';
import { answerClientError, hasSeveralHosts, SEVERAL_HOSTS } from './http/request-framing.js';
import { loggedPath, logRequest } from './http/request-log.js';
import { urlHostFor } from './http/wildcard.js';
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
  /**
   * Serve the control API under `/_control/` (clock, revoke, faults, state, reset). Refused at
   * start on a non-loopback bind unless `controlToken` is set. The handle's methods work either way.
   */
  control?: boolean;
  /** With `control`: every control request must present this as `Authorization: Bearer`. */
  controlToken?: string;
  /**
   * Called for each create-token request before the service answers it; return
   * `{ status, body, headers? }` to send that instead, or undefined for the normal answer. For the
   * cases faults cannot express (answers that depend on the request).
   */
  onTokenRequest?: TokenRequestHook;
}

export interface TokenServiceHandle {
  /**
   * `http://HOST:PORT`, the IPv6 host in brackets; for a wildcard bind (`0.0.0.0`, `::`) the
   * loopback address of that family, which a client on this machine can use.
   */
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
  /**
   * The service's clock. `clock.advance(3600)` expires what lives an hour (codes, access and
   * refresh tokens, SAML validity windows, the assertion replay cache) without waiting.
   */
  clock: ServiceClock;
  /**
   * Revokes the tokens of a user (`{email}`), of an application (`{client_id}`), or one token
   * (`{access_token}` — with its refresh token — or `{refresh_token}`): tokeninfo then answers 401
   * invalid_token and refresh is refused. Returns how many live tokens it ended.
   *
   * @throws TypeError for a malformed request, or an email or client id the configuration lacks
   */
  revoke(request: RevokeRequest): RevokeResult;
  /**
   * The next `count` (default 1) requests to `endpoint` get this answer instead of the service's,
   * e.g. `{ endpoint: 'token', status: 503, retry_after: 1 }`, `{ endpoint: 'token', subcode: '018' }`,
   * `{ endpoint: 'tokeninfo', body: 'html' }` (a gateway's 502), `{ endpoint: 'token', delay_ms: 5000 }`.
   *
   * @throws TypeError naming the bad key
   */
  fault(spec: FaultSpec): void;
  /** Drops every pending fault. */
  clearFaults(): void;
  /** Apps, users and their live sessions, counts of live codes and tokens (masked), pending faults. */
  state(): ServiceState;
  /** Back to the configuration's initial state: no tokens, sessions or faults, the clock unmoved. */
  reset(): void;
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
 * Starts the local token service (docs/contract.md §3) and resolves once it listens.
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
  const adjustable = new AdjustableClock(options.now ?? Date.now);
  const clock = adjustable.read;
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
  const interceptor = new Interceptor(options.onTokenRequest);
  const control = new ServiceControl(adjustable, interceptor, context, checked);
  const controlOn = options.control === true;
  if (options.controlToken !== undefined && !/^[\x21-\x7e]+$/.test(options.controlToken)) {
    // It travels in an Authorization header; '' would also leave a non-loopback bind open.
    throw new TypeError('startTokenService: controlToken must be non-empty printable ASCII without spaces');
  }
  const controlDigest =
    options.controlToken === undefined ? undefined : controlTokenDigest(options.controlToken);

  const server = createServer((req, res) => {
    const [path, query] = splitTarget(req.url ?? '/');
    const route = ROUTES[path];
    if (log) logRequest(req, res, loggedPath(path, route !== undefined), log);
    if (hasSeveralHosts(req)) return sendJson(res, SEVERAL_HOSTS);
    if (hostCheck && !hostCheck(req.headers.host)) return sendJson(res, FORBIDDEN_HOST);
    if (!route) {
      if (controlOn && path.startsWith(CONTROL_PREFIX)) {
        return handleControl(req, res, path, control, controlDigest).catch((error: unknown) =>
          answerInternalError(res, error, log),
        );
      }
      return sendJson(res, NOT_FOUND);
    }
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
    // Faults and hooks step in only while there are some: otherwise this is one read.
    const answer = interceptor.active
      ? interceptor.handle(path, req, res, context, query, handler)
      : handler(req, res, context, query);
    // Only the asynchronous handlers answer with a promise: no promise is made for the others.
    if (answer instanceof Promise) answer.catch((error: unknown) => answerInternalError(res, error, log));
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
  const loopback = isLoopbackAddress(address.address);
  if (controlOn && !loopback && controlDigest === undefined) {
    await new Promise((resolve) => server.close(resolve));
    // Anyone who can reach it could revoke tokens and break the service.
    throw new ServiceConfigError(`the control API is refused on ${host}, which is not a loopback address`, {
      reason: 'control_not_loopback',
    });
  }
  // Only while bound to loopback: a service on 0.0.0.0 is reached by other names on purpose.
  if (loopback) hostCheck = createHostCheck(options.allowHosts ?? []);
  // A wildcard bind gets a base URL a client can use: the loopback address (http/wildcard.ts).
  context.baseUrl = `http://${urlHostFor(host)}:${address.port}`;
  const timer = setInterval(() => {
    store.purgeExpired();
    context.samlReplay.purge();
  }, options.purgeIntervalMs ?? 10_000);
  timer.unref();

  const demoSso = demoKeyPair?.then((pair) => connectDemoSso(registry, checked, pair));
  demoSso?.catch(() => {});

  let closing: Promise<void> | undefined;
  return {
    baseUrl: context.baseUrl,
    config: checked,
    stats: () => ({ ...store.size(), samlAssertionIds: context.samlReplay.size }),
    clock: adjustable,
    revoke: (request) => control.revoke(request),
    fault: (spec) => {
      control.fault(spec);
    },
    clearFaults: () => control.clearFaults(),
    state: () => control.state(),
    reset: () => control.reset(),
    ...(demoSso === undefined ? {} : { demoSso }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(timer);
        server.close(() => resolve());
        server.closeAllConnections();
        interceptor.clear(); // after the connections: delayed answers find theirs gone
      });
      return closing;
    },
  };
}
