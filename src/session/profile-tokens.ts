/**
 * The tokens of one profile for one service: bound to the session's store, the profile and the
 * service's base URL and client id. The one place that decides whether a stored record belongs
 * to this service (docs/contract.md §2.7), and the one way to save a new token (under the
 * profile's lock, remembering the profile's service) or drop a refused one.
 */
import type { CredentialStore, TokenRecord } from '../store/types.js';
import { keepsInProfile, rememberProfile } from './profile-record.js';
import type { Session } from './session.js';
import type { ServiceCoordinates, Settings } from './settings.js';

/** The life the service gave the token, in whole seconds (its `expires_in`). */
export function wholeLifeSeconds(record: TokenRecord): number {
  return Math.round((Date.parse(record.expires_at) - Date.parse(record.obtained_at)) / 1000);
}

/**
 * How much life a cached token must have left. A minimum TTL as long as the token's whole life or
 * longer could never be met — even a new token has used a moment of its life by the next call —
 * and would renew on every call; it then counts as half that life (docs/contract.md §2.3).
 */
export function requiredLifeMs(record: TokenRecord, minTtlSeconds: number): number {
  const life = wholeLifeSeconds(record);
  return minTtlCountsAsHalfLife(minTtlSeconds, life) ? (life * 1000) / 2 : minTtlSeconds * 1000;
}

/** Whether a minimum TTL cannot be met by a token of this whole life, and so counts as half of it. */
export function minTtlCountsAsHalfLife(minTtlSeconds: number, lifeSeconds: number): boolean {
  return lifeSeconds > 0 && minTtlSeconds >= lifeSeconds;
}

/** Whether a stored record was issued by this service to this client. */
export function belongsTo(
  record: TokenRecord | undefined,
  service: ServiceCoordinates,
): record is TokenRecord {
  return record !== undefined && record.base_url === service.baseUrl && record.client_id === service.clientId;
}

/** A record of this service usable as it is: at least `minTtlSeconds` left at `nowMs` (the session's `time()`). */
export function freshRecord(
  record: TokenRecord | undefined,
  service: ServiceCoordinates,
  minTtlSeconds: number,
  nowMs: number,
): TokenRecord | undefined {
  if (!belongsTo(record, service) || record.access_token_refused_at !== undefined) return undefined;
  const left = Date.parse(record.expires_at) - nowMs;
  return left > 0 && left >= requiredLifeMs(record, minTtlSeconds) ? record : undefined;
}

export class ProfileTokens {
  readonly profile: string;

  constructor(
    private readonly session: Session,
    readonly settings: Settings,
    readonly service: ServiceCoordinates,
    readonly store: CredentialStore,
  ) {
    this.profile = settings.profile;
  }

  /** The stored record whatever service it is for (to say why it cannot be used). */
  stored(): Promise<TokenRecord | undefined> {
    return this.store.getTokens(this.profile);
  }

  /** Whether a record is this service's. */
  belongs(record: TokenRecord | undefined): record is TokenRecord {
    return belongsTo(record, this.service);
  }

  /** The stored record if it is this service's. */
  async get(): Promise<TokenRecord | undefined> {
    const record = await this.stored();
    return this.belongs(record) ? record : undefined;
  }

  /** The stored record if it is this service's and has at least `minTtlSeconds` left. */
  async fresh(minTtlSeconds: number): Promise<TokenRecord | undefined> {
    return freshRecord(await this.stored(), this.service, minTtlSeconds, this.session.time());
  }

  /** Whether a new token would be kept: not when the session names another service than the profile's. */
  get keeps(): boolean {
    return keepsInProfile(this.settings);
  }

  withLock<T>(fn: () => Promise<T>): Promise<T> {
    return this.session.withProfileLock(fn);
  }

  /**
   * Stores a new token for the profile (under its lock unless `lockHeld`) and records the
   * profile's service and store. Returns whether it persists: false when the session names
   * another service (nothing is kept then) or with the `none` store.
   */
  async save(record: TokenRecord, options: { lockHeld?: boolean } = {}): Promise<boolean> {
    if (!this.keeps) return false;
    const set = () => this.store.setTokens(this.profile, record);
    if (options.lockHeld) await set();
    else await this.withLock(set);
    await rememberProfile(this.session, this.settings, this.service, this.store);
    return this.store.kind !== 'none';
  }

  /**
   * Records that the service refused the stored access token, if it is still the refused one
   * (another run may have renewed it meanwhile): it is never handed out or sent again, and the
   * next token step renews it. The record stays — its refresh token renews it, its email names
   * the user a password is for. Returns whether a refresh token remains to renew it with.
   */
  async drop(refused: TokenRecord): Promise<boolean> {
    return this.withLock(async () => {
      const current = await this.stored();
      if (current === undefined || current.access_token !== refused.access_token) return true;
      if (current.access_token_refused_at !== undefined) return current.refresh_token !== undefined;
      const now = this.session.now();
      // Its expiry is brought forward too, so a reader that does not know the mark (an older
      // tokencli sharing the store) still never hands the token out.
      const expiresAt = new Date(Math.min(Date.parse(current.expires_at), now.getTime()));
      await this.store.setTokens(this.profile, {
        ...current,
        expires_at: expiresAt.toISOString(),
        access_token_refused_at: now.toISOString(),
      });
      return current.refresh_token !== undefined;
    });
  }
}
