// A token bucket measured in milliseconds: `rate` tokens per second, at most `burst` stored.

/** Float slack so that a bucket refilled to 1.9999999 counts as holding 2 tokens. */
const EPSILON = 1e-9;

/** Internal: one bucket. `rate` Infinity means unlimited (always full). */
export class TokenBucket {
  #tokens: number;
  #last: number;

  constructor(
    readonly rate: number,
    readonly burst: number,
    now: number,
  ) {
    this.#tokens = burst;
    this.#last = now;
  }

  /** Tokens available at `now` (fractional). */
  available(now: number): number {
    this.#refill(now);
    return this.#tokens;
  }

  /** Milliseconds until `count` tokens are available (0 when they are). */
  waitFor(count: number, now: number): number {
    this.#refill(now);
    if (this.#tokens >= count - EPSILON) return 0;
    if (count > this.burst) return Number.POSITIVE_INFINITY;
    const pending = this.#last > now ? this.#last - now : 0;
    return pending + Math.ceil(((count - this.#tokens) * 1000) / this.rate);
  }

  /** Spends one token (callers check `waitFor` first). */
  take(now: number): void {
    this.#refill(now);
    this.#tokens -= 1;
  }

  /** True when the bucket is full and idle (nothing is lost by forgetting it). */
  isFull(now: number): boolean {
    return this.available(now) >= this.burst;
  }

  /** Empties the bucket but for `left` tokens and holds the refill until `until`. */
  holdUntil(until: number, left: number): void {
    this.#tokens = Math.min(this.#tokens, left);
    this.#last = Math.max(this.#last, until);
  }

  #refill(now: number): void {
    if (this.rate === Number.POSITIVE_INFINITY) {
      if (now >= this.#last) this.#tokens = this.burst;
      return;
    }
    if (now <= this.#last) return;
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#last) * this.rate) / 1000);
    this.#last = now;
  }
}
