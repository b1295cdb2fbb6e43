/** A FIFO counting semaphore: the global lane that caps runs across sessions. */
export class Semaphore {
  private inUse = 0;
  private readonly waiters: Array<{ grant: () => void }> = [];

  constructor(private readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`semaphore limit must be at least 1 (got ${limit})`);
  }

  /** Slots taken right now. */
  get active(): number {
    return this.inUse;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Resolves with a release function once a slot is free, first come first served. Rejects with
   * the signal's reason if it aborts while waiting (the caller never held a slot then). The
   * release function is idempotent.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.inUse < this.limit && this.waiters.length === 0) {
      this.inUse += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          this.inUse += 1;
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse -= 1;
      if (this.inUse < this.limit) this.waiters.shift()?.grant();
    };
  }
}
