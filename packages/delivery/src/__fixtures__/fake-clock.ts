// A manual clock for delivery tests: time moves only through `advance`, timers fire in order, and
// pending promise chains settle between timers.
import type { DeliveryClock } from "../clock.js";

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** Lets every queued microtask (and what it queues) run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class FakeClock implements DeliveryClock {
  #now: number;
  #timers: Timer[] = [];
  #nextId = 1;

  constructor(start = 1_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), fn };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** Number of armed timers. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing due timers in order and settling promises after each. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    await settle();
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.#timers)
        if (t.at <= end && (next === undefined || t.at < next.at || (t.at === next.at && t.id < next.id))) next = t;
      if (next === undefined) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#now = Math.max(this.#now, next.at);
      next.fn();
      await settle();
    }
    this.#now = end;
    await settle();
  }

  /** Advances until `promise` settles (at most `limitMs`), returning its value. */
  async run<T>(promise: Promise<T>, limitMs = 600_000, stepMs = 50): Promise<T> {
    let done = false;
    let value: T | undefined;
    let failure: { error: unknown } | undefined;
    promise.then(
      (v) => {
        done = true;
        value = v;
      },
      (error: unknown) => {
        done = true;
        failure = { error };
      },
    );
    await settle();
    for (let spent = 0; !done && spent < limitMs; spent += stepMs) await this.advance(stepMs);
    if (!done) throw new Error(`promise still pending after ${limitMs} simulated ms`);
    if (failure !== undefined) throw failure.error;
    return value as T;
  }
}
