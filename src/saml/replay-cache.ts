/**
 * Remembers accepted assertion IDs until their assertions expire, so each is accepted once
 * (docs/contract.md §3; saml-profiles-2.0-os §4.1.4.5 for bearer assertions). Check-and-record is one
 * synchronous call, so concurrent requests in one process cannot both pass; expired IDs are
 * dropped as new ones arrive, so memory stays bounded by what is still valid (docs/contract.md §3).
 */

/** What `verifySamlBearer` needs from a replay cache. */
export interface ReplayGuard {
  /**
   * Returns true when `id` was already recorded and has not expired; otherwise records it until
   * `expiresAt` (epoch milliseconds) and returns false. Must be atomic.
   */
  seen(id: string, expiresAt: number): boolean;
}

export interface ReplayCacheOptions {
  /** Clock in epoch milliseconds; tests replace it. */
  now?: () => number;
  /** How many IDs may be held before recording refuses (fails closed); default 100 000. */
  maxEntries?: number;
}

/** An in-memory `ReplayGuard`: a Map of ID → expiry, purged of expired entries as it goes. */
export class ReplayCache implements ReplayGuard {
  readonly #entries = new Map<string, number>();
  readonly #now: () => number;
  readonly #maxEntries: number;
  #nextPurge = 0;

  constructor(options: ReplayCacheOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxEntries = options.maxEntries ?? 100_000;
  }

  /** How many IDs are held (expired ones included until the next purge). */
  get size(): number {
    return this.#entries.size;
  }

  seen(id: string, expiresAt: number): boolean {
    const now = this.#now();
    if (now >= this.#nextPurge || this.#entries.size >= this.#maxEntries) this.purge(now);
    const known = this.#entries.get(id);
    if (known !== undefined && known > now) return true;
    // Full of still-valid IDs: treat as seen (refuse) rather than forget one and allow a replay.
    if (this.#entries.size >= this.#maxEntries) return true;
    this.#entries.set(id, expiresAt);
    return false;
  }

  /**
   * Un-records `id`. For a caller that recorded it in the same synchronous step and then refused
   * the request for a reason that is not the assertion's (the token service's concurrent-session
   * rule, subcode 018), so that the same assertion may be sent again with endOtherSessions=True.
   */
  forget(id: string): void {
    this.#entries.delete(id);
  }

  /** Drops every ID whose assertion has expired. */
  purge(now: number = this.#now()): void {
    for (const [id, expiresAt] of this.#entries) {
      if (expiresAt <= now) this.#entries.delete(id);
    }
    // A full sweep at most once a second keeps a busy service from sweeping on every request.
    this.#nextPurge = now + 1000;
  }
}
