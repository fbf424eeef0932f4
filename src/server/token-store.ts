/**
 * Authorization codes, access tokens and refresh tokens held in memory, each in a Map keyed by
 * the opaque string handed out. Records are small fixed-shape objects pointing at the shared app
 * and user entries, so 100k live tokens cost a few hundred bytes each.
 *
 * Times are milliseconds since the store was created (`clock() - epoch`): small integers that V8
 * keeps unboxed for about 24 days of uptime, instead of one boxed double per record.
 */
import type { AppEntry, UserEntry } from './registry.js';
import { newOpaqueToken } from './secrets.js';

export interface StoreTimes {
  /** Seconds. */
  accessTokenTtl: number;
  /** Seconds. */
  refreshTokenTtl: number;
  /** Seconds. */
  codeTtl: number;
}

export class RefreshToken {
  constructor(
    readonly token: string,
    readonly app: AppEntry,
    readonly user: UserEntry,
    /** The user's generation this session belongs to; see UserEntry.generation. */
    public generation: number,
    readonly expiresAt: number,
  ) {}
}

export class AccessToken {
  constructor(
    readonly app: AppEntry,
    readonly user: UserEntry,
    readonly generation: number,
    readonly expiresAt: number,
    /** The refresh token issued alongside (authorization-code flow), reported by tokeninfo. */
    readonly refresh: RefreshToken | null,
  ) {}
}

export class AuthorizationCode {
  /** Set at the first exchange; a second one is a replay (RFC 6749 §4.1.2). */
  issued: { readonly access: string; readonly refresh: string | null } | null = null;

  constructor(
    readonly app: AppEntry,
    readonly user: UserEntry,
    /** The redirect URI the browser was sent to; the exchange must not name another. */
    readonly redirectUri: string,
    /**
     * Whether the authorization request named the redirect URI: then the exchange must repeat it
     * (RFC 6749 §4.1.3), not merely not contradict it.
     */
    readonly redirectUriRequired: boolean,
    /** PKCE S256 challenge (RFC 7636 §4.2), or null when the request had none. */
    readonly codeChallenge: string | null,
    /** `endOtherSessions=True` was asked for at the authorize endpoint. */
    readonly endOtherSessions: boolean,
    readonly expiresAt: number,
  ) {}
}

/** What the control API may revoke: one token, or everything of an app or a user. */
export type RevokeTarget =
  | { kind: 'access'; token: string }
  | { kind: 'refresh'; token: string }
  | { kind: 'app'; app: AppEntry }
  | { kind: 'user'; user: UserEntry };

/** How many live tokens a revocation ended. */
export interface RevokeCount {
  accessTokens: number;
  refreshTokens: number;
}

/** A live record, as the control API's state lists it. */
export interface LiveRecord {
  kind: 'code' | 'access' | 'refresh';
  token: string;
  app: AppEntry;
  user: UserEntry;
  expiresAt: number;
}

/** What `takeCode` found. */
export type CodeLookup =
  | { kind: 'valid'; code: AuthorizationCode }
  | { kind: 'invalid' }
  /** Used before: the tokens issued for it have just been revoked (RFC 6749 §4.1.2). */
  | { kind: 'replayed' };

const SPENT = { access: '', refresh: null } as const;

export class TokenStore {
  readonly #codes = new Map<string, AuthorizationCode>();
  readonly #access = new Map<string, AccessToken>();
  readonly #refresh = new Map<string, RefreshToken>();
  readonly #clock: () => number;
  readonly #epoch: number;
  readonly #times: StoreTimes;

  constructor(times: StoreTimes, clock: () => number) {
    this.#times = times;
    this.#clock = clock;
    this.#epoch = clock();
  }

  /** Milliseconds since the store was created, by the injected clock. */
  now(): number {
    return this.#clock() - this.#epoch;
  }

  /**
   * Whole seconds left before `expiresAt`: the `expires_in` of docs/contract.md §1 rule 4.
   *
   * @param now the store's time, when the caller has already read it (`now()`), so that one answer
   *   reads the clock once
   */
  secondsLeft(expiresAt: number, now = this.now()): number {
    // Floored, as the platform counts: its samples show 3599 for a fresh hour token, so a token
    // answered even a millisecond after it was issued reports 3599 here too. A client tested
    // against this service then meets the same numbers as in production (`--min-ttl` equal to
    // a token's whole life among them).
    return Math.max(0, Math.floor((expiresAt - now) / 1000));
  }

  issueCode(
    app: AppEntry,
    user: UserEntry,
    redirectUri: string,
    redirectUriRequired: boolean,
    codeChallenge: string | null,
    endOtherSessions: boolean,
  ): string {
    const code = newOpaqueToken();
    const expiresAt = this.now() + this.#times.codeTtl * 1000;
    this.#codes.set(
      code,
      new AuthorizationCode(
        app,
        user,
        redirectUri,
        redirectUriRequired,
        codeChallenge,
        endOtherSessions,
        expiresAt,
      ),
    );
    return code;
  }

  /**
   * Looks a code up for an exchange. A code is good once: the first lookup marks it used, a
   * later one revokes what the first produced.
   */
  takeCode(value: string): CodeLookup {
    const code = this.#codes.get(value);
    if (!code || code.expiresAt <= this.now()) return { kind: 'invalid' };
    if (code.issued !== null) {
      this.#access.delete(code.issued.access);
      if (code.issued.refresh !== null) this.#refresh.delete(code.issued.refresh);
      code.issued = SPENT;
      return { kind: 'replayed' };
    }
    // Spent from now on, even if this exchange fails (wrong verifier, session rule).
    code.issued = SPENT;
    return { kind: 'valid', code };
  }

  /** Records which tokens a code produced, so a replay can revoke them. */
  recordCodeTokens(code: AuthorizationCode, access: string, refresh: string | null): void {
    code.issued = { access, refresh };
  }

  issueRefreshToken(app: AppEntry, user: UserEntry): RefreshToken {
    const token = newOpaqueToken();
    const expiresAt = this.now() + this.#times.refreshTokenTtl * 1000;
    const record = new RefreshToken(token, app, user, user.generation, expiresAt);
    this.#refresh.set(token, record);
    this.#extendSession(user, expiresAt);
    return record;
  }

  issueAccessToken(app: AppEntry, user: UserEntry, refresh: RefreshToken | null): [string, AccessToken] {
    const token = newOpaqueToken();
    const expiresAt = this.now() + this.#times.accessTokenTtl * 1000;
    const record = new AccessToken(app, user, user.generation, expiresAt, refresh);
    this.#access.set(token, record);
    this.#extendSession(user, expiresAt);
    return [token, record];
  }

  /**
   * A live access token: known, unexpired, and not revoked by the end of its user's sessions.
   *
   * @param now as for `secondsLeft`
   */
  findAccessToken(token: string, now = this.now()): AccessToken | undefined {
    const record = this.#access.get(token);
    if (!record || record.expiresAt <= now || record.generation !== record.user.generation) {
      return undefined;
    }
    return record;
  }

  /** A live refresh token, like findAccessToken. */
  findRefreshToken(token: string, now = this.now()): RefreshToken | undefined {
    const record = this.#refresh.get(token);
    if (!record || record.expiresAt <= now || record.generation !== record.user.generation) {
      return undefined;
    }
    return record;
  }

  /** Whether the user holds a session (an unexpired, unrevoked token) right now. */
  hasLiveSession(user: UserEntry): boolean {
    return user.liveUntil > this.now();
  }

  /**
   * Ends every session of the user (docs/contract.md §1 rule 10): all their access and refresh tokens,
   * with every application, stop working. `keep` survives: the session a refresh continues.
   */
  endSessions(user: UserEntry, keep?: RefreshToken): void {
    user.generation += 1;
    user.liveUntil = 0;
    if (keep) {
      keep.generation = user.generation;
      this.#extendSession(user, keep.expiresAt);
    }
  }

  #extendSession(user: UserEntry, expiresAt: number): void {
    if (expiresAt > user.liveUntil) user.liveUntil = expiresAt;
  }

  /**
   * Drops expired codes and tokens so memory stays bounded (docs/contract.md §3). Every record of a map
   * has the same lifetime and the clock does not go back, so insertion order is expiry order:
   * the scan stops at the first live record and costs only what it removes. Revoked records
   * linger until they expire, no longer than their lifetime.
   */
  purgeExpired(): void {
    const now = this.now();
    for (const map of [this.#codes, this.#access, this.#refresh] as Map<string, { expiresAt: number }>[]) {
      for (const [key, record] of map) {
        if (record.expiresAt > now) break;
        map.delete(key);
      }
    }
  }

  /**
   * Revokes live tokens for the control API. A revoked access token takes the refresh
   * token issued with it along (and so every access token that refresh token produced): "revoked"
   * means the client must log in again, not merely refresh. Deleting records breaks no invariant of
   * `purgeExpired`; the sessions of the users concerned are recomputed from what is left, so the
   * concurrent-session rule no longer counts the revoked ones.
   */
  revoke(target: RevokeTarget): RevokeCount {
    const count: RevokeCount = { accessTokens: 0, refreshTokens: 0 };
    if (target.kind === 'user') {
      for (const record of this.live()) {
        if (record.user !== target.user || record.kind === 'code') continue;
        if (record.kind === 'access') count.accessTokens += 1;
        else count.refreshTokens += 1;
      }
      this.endSessions(target.user);
      return count;
    }
    const refreshes = new Set<RefreshToken>();
    const users = new Set<UserEntry>();
    if (target.kind === 'access') {
      const access = this.findAccessToken(target.token);
      if (access) {
        this.#access.delete(target.token);
        count.accessTokens += 1;
        users.add(access.user);
        if (access.refresh !== null && this.findRefreshToken(access.refresh.token))
          refreshes.add(access.refresh);
      }
    } else if (target.kind === 'refresh') {
      const refresh = this.findRefreshToken(target.token);
      if (refresh) refreshes.add(refresh);
    } else {
      for (const [key, record] of this.#refresh) {
        if (record.app === target.app && this.findRefreshToken(key)) refreshes.add(record);
      }
    }
    for (const refresh of refreshes) {
      this.#refresh.delete(refresh.token);
      count.refreshTokens += 1;
      users.add(refresh.user);
    }
    for (const [key, record] of this.#access) {
      const byRefresh = record.refresh !== null && refreshes.has(record.refresh);
      if (!byRefresh && !(target.kind === 'app' && record.app === target.app)) continue;
      if (this.findAccessToken(key)) count.accessTokens += 1;
      this.#access.delete(key);
      users.add(record.user);
    }
    for (const user of users) this.#recomputeSession(user);
    return count;
  }

  /** The user's session ends when the last live token of the current generation expires. */
  #recomputeSession(user: UserEntry): void {
    let until = 0;
    for (const record of this.live()) {
      if (record.user === user && record.kind !== 'code' && record.expiresAt > until)
        until = record.expiresAt;
    }
    user.liveUntil = until;
  }

  /** Every live code and token (unexpired, unrevoked, codes unused), for the control API's state. */
  *live(): Generator<LiveRecord> {
    const now = this.now();
    for (const [token, code] of this.#codes) {
      if (code.expiresAt > now && code.issued === null) {
        yield { kind: 'code', token, app: code.app, user: code.user, expiresAt: code.expiresAt };
      }
    }
    for (const [token, record] of this.#access) {
      if (this.findAccessToken(token)) {
        yield { kind: 'access', token, app: record.app, user: record.user, expiresAt: record.expiresAt };
      }
    }
    for (const [token, record] of this.#refresh) {
      if (this.findRefreshToken(token)) {
        yield { kind: 'refresh', token, app: record.app, user: record.user, expiresAt: record.expiresAt };
      }
    }
  }

  /** Forgets every code and token (the control API's reset); users' sessions are reset by the caller. */
  clear(): void {
    this.#codes.clear();
    this.#access.clear();
    this.#refresh.clear();
  }

  /** How many records are held, expired or not yet purged included. */
  size(): { codes: number; accessTokens: number; refreshTokens: number } {
    return { codes: this.#codes.size, accessTokens: this.#access.size, refreshTokens: this.#refresh.size };
  }
}
