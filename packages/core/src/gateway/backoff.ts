/** Restart pacing of a crashed account. */
export interface BackoffPolicy {
  /** First delay after a crash; default 1000 ms. */
  initialMs: number;
  /** The delay doubles after each crash up to this; default 60 000 ms. */
  maxMs: number;
  /** A run that stayed up this long counts as healthy: the next delay starts again at `initialMs`. Default 300 000 ms (5 min). */
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 1000, maxMs: 60_000, resetAfterMs: 300_000 };

/**
 * Exponential backoff with reset after a healthy run. `next(ranForMs)` returns the delay before
 * the next restart, given how long the crashed run had been up.
 */
export class Backoff {
  private readonly policy: BackoffPolicy;
  private current = 0;

  constructor(policy: Partial<BackoffPolicy> = {}) {
    this.policy = { ...DEFAULT_BACKOFF, ...policy };
  }

  next(ranForMs: number): number {
    if (ranForMs >= this.policy.resetAfterMs || this.current === 0) {
      this.current = this.policy.initialMs;
    } else {
      this.current = Math.min(this.policy.maxMs, this.current * 2);
    }
    return this.current;
  }
}

/** Resolves after `ms`, or at once when `signal` fires (never rejects). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
