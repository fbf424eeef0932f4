/**
 * What a test does to a running token service: move its clock, revoke tokens, inject
 * faults, look at its state, reset it. The programmatic handle and the `/_control/` endpoints both
 * call these methods, so the two offer exactly the same.
 */
import { ReplayCache } from '../../saml/replay-cache.js';
import type { ServiceConfig } from '../config.js';
import type { ServiceContext } from '../endpoints/context.js';
import type { RevokeTarget } from '../token-store.js';
import type { AdjustableClock } from './clock.js';
import { type FaultSpec, parseFaultSpec } from './faults.js';
import type { Interceptor } from './intercept.js';
import { asObject, ControlInputError, onlyKeys, optionalString } from './validate.js';

/** Which tokens to revoke: exactly one key. */
export type RevokeRequest =
  | { email: string }
  | { access_token: string }
  | { refresh_token: string }
  | { client_id: string };

/** How many live tokens a revocation ended. */
export interface RevokeResult {
  access_tokens: number;
  refresh_tokens: number;
}

/** A live token in the state, masked (`abcd…wxyz`): the state is for looking, not for reuse. */
export interface MaskedToken {
  kind: 'code' | 'access' | 'refresh';
  client_id: string;
  token: string;
  expires_in: number;
}

/** `GET /_control/state`, `service.state()`. */
export interface ServiceState {
  /** The service's time (ISO 8601), after any `clock.advance`. */
  time: string;
  clock_offset_seconds: number;
  apps: Array<{
    client_id: string;
    app_name: string;
    grants: string[];
    refresh_tokens: boolean;
    sso: boolean;
  }>;
  users: Array<{
    email: string;
    single_session: boolean;
    /** Holds an unexpired, unrevoked token (what the concurrent-session rule looks at). */
    live_session: boolean;
    /** Its live codes and tokens, masked (at most 20 listed). */
    tokens: MaskedToken[];
  }>;
  /** Live (unexpired, unrevoked, unused) codes and tokens. */
  live: { codes: number; access_tokens: number; refresh_tokens: number };
  faults: Array<FaultSpec & { remaining: number }>;
}

const MAX_TOKENS_PER_USER = 20;
const REVOKE_KEYS = ['email', 'access_token', 'refresh_token', 'client_id'] as const;

function mask(token: string): string {
  return token.length < 16 ? '…' : `${token.slice(0, 4)}…${token.slice(-4)}`;
}

export class ServiceControl {
  constructor(
    readonly clock: AdjustableClock,
    readonly interceptor: Interceptor,
    readonly context: ServiceContext,
    readonly config: ServiceConfig,
  ) {}

  /** Adds a fault; throws ControlInputError (a TypeError) naming a bad key. */
  fault(spec: FaultSpec): FaultSpec {
    const checked = parseFaultSpec(spec);
    this.interceptor.faults.add(checked);
    return checked;
  }

  clearFaults(): void {
    this.interceptor.clear();
  }

  /**
   * Revokes the tokens of a user (every session, every application), of an application, or one
   * token (an access token with the refresh token issued alongside). Tokeninfo then answers 401
   * invalid_token and refresh is refused with invalid_grant.
   *
   * @throws ControlInputError for a malformed request or an unknown email or client id
   */
  revoke(request: RevokeRequest): RevokeResult {
    const object = asObject(request, 'the revoke request');
    onlyKeys(object, REVOKE_KEYS, 'the revoke request');
    const given = REVOKE_KEYS.filter((key) => object[key] !== undefined);
    if (given.length !== 1) {
      throw new ControlInputError(given[1] ?? '', `give exactly one of ${REVOKE_KEYS.join(', ')}`);
    }
    const key = given[0] as (typeof REVOKE_KEYS)[number];
    const value = optionalString(object, key) as string;
    const { registry, store } = this.context;
    let target: RevokeTarget;
    if (key === 'email') {
      const user = registry.user(value);
      if (!user)
        throw new ControlInputError('email', `no user "${value.slice(0, 100)}" in the configuration`);
      target = { kind: 'user', user };
    } else if (key === 'client_id') {
      const app = registry.app(value);
      if (!app)
        throw new ControlInputError(
          'client_id',
          `no application "${value.slice(0, 100)}" in the configuration`,
        );
      target = { kind: 'app', app };
    } else {
      target = { kind: key === 'access_token' ? 'access' : 'refresh', token: value };
    }
    const count = store.revoke(target);
    return { access_tokens: count.accessTokens, refresh_tokens: count.refreshTokens };
  }

  state(): ServiceState {
    const { registry, store } = this.context;
    const live = { codes: 0, access_tokens: 0, refresh_tokens: 0 };
    const byUser = new Map<string, MaskedToken[]>();
    for (const record of store.live()) {
      if (record.kind === 'code') live.codes += 1;
      else if (record.kind === 'access') live.access_tokens += 1;
      else live.refresh_tokens += 1;
      const list = byUser.get(record.user.email) ?? [];
      list.push({
        kind: record.kind,
        client_id: record.app.clientId,
        token: mask(record.token),
        expires_in: store.secondsLeft(record.expiresAt),
      });
      if (list.length > MAX_TOKENS_PER_USER) list.shift();
      byUser.set(record.user.email, list);
    }
    return {
      time: new Date(this.clock.now()).toISOString(),
      clock_offset_seconds: this.clock.offsetSeconds,
      apps: this.config.apps.map((app) => ({
        client_id: app.client_id,
        app_name: app.app_name,
        grants: [...app.grants],
        refresh_tokens: app.refresh_tokens,
        sso: registry.app(app.client_id)?.config.saml !== undefined,
      })),
      users: this.config.users.map((user) => {
        const entry = registry.user(user.email);
        return {
          email: user.email,
          single_session: user.single_session,
          live_session: entry !== undefined && store.hasLiveSession(entry),
          tokens: byUser.get(user.email) ?? [],
        };
      }),
      live,
      faults: this.interceptor.faults.list(),
    };
  }

  /**
   * Back to the configuration's initial state: no codes, tokens, sessions, accepted assertion IDs
   * or faults, and the clock back where it was. The applications and users stay as configured
   * (the demo's generated SSO key included).
   */
  reset(): void {
    this.interceptor.clear();
    this.clock.resetOffset();
    this.context.store.clear();
    this.context.samlReplay = new ReplayCache({ now: this.clock.read });
    for (const user of this.config.users) {
      const entry = this.context.registry.user(user.email);
      if (entry) entry.liveUntil = 0;
    }
  }
}
