/**
 * The one clock of a token service: codes, access and refresh tokens, SAML validity windows and
 * the assertion replay cache all read it, so a test that moves it forward (`clock.advance`,
 * `POST /_control/clock`) sees every expiry at once instead of waiting an hour.
 */

/** The service's clock, as the programmatic handle exposes it. */
export interface ServiceClock {
  /** The service's current time in epoch milliseconds. */
  now(): number;
  /**
   * Moves the service's time forward by `seconds` (fractions allowed). Never backwards: the token
   * store relies on expiry order following insertion order (see `TokenStore.purgeExpired`).
   *
   * @throws TypeError for a negative, non-finite or absurdly large value
   */
  advance(seconds: number): void;
  /** How far the clock has been moved, in seconds. */
  readonly offsetSeconds: number;
}

/** Ten years: far beyond any lifetime, small enough that dates stay printable. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

/** What `advance` takes, checked the same way for the handle and `POST /_control/clock`. */
export function isAdvanceSeconds(seconds: unknown): seconds is number {
  return (
    typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_ADVANCE_SECONDS
  );
}

/** An adjustable clock over a base one (`Date.now`, or a test's fake clock). */
export class AdjustableClock implements ServiceClock {
  #offsetMs = 0;
  /**
   * Bound once and handed to the store and caches, which call it several times per request: it
   * reads the offset from a closure variable, not through `this`, to cost next to nothing beyond
   * the base clock itself (the service's throughput is benchmarked, docs/contract.md §4).
   */
  readonly read: () => number;
  readonly #setOffset: (ms: number) => void;

  constructor(base: () => number) {
    let offset = 0;
    this.read = base === Date.now ? () => Date.now() + offset : () => base() + offset;
    this.#setOffset = (ms) => {
      offset = ms;
    };
  }

  now(): number {
    return this.read();
  }

  advance(seconds: number): void {
    if (!isAdvanceSeconds(seconds)) {
      throw new TypeError(
        `clock.advance: seconds must be a number from 0 to ${MAX_ADVANCE_SECONDS}, got ${String(seconds)}`,
      );
    }
    this.#offsetMs += Math.round(seconds * 1000);
    this.#setOffset(this.#offsetMs);
  }

  get offsetSeconds(): number {
    return this.#offsetMs / 1000;
  }

  /** Back to the base clock (`reset()`). */
  resetOffset(): void {
    this.#offsetMs = 0;
    this.#setOffset(0);
  }
}
