import type { QueueTimers } from "./types.js";

/** Wakes waiters when the queue has nothing running and nothing waiting. */
export class IdleWatch {
  private waiters: Array<() => void> = [];

  constructor(
    private readonly isIdle: () => boolean,
    private readonly timers: QueueTimers,
  ) {}

  /** Call after anything that may have emptied the queue. */
  check(): void {
    if (!this.isIdle()) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** True once idle; false when `timeoutMs` (if given) passed first. */
  wait(timeoutMs?: number): Promise<boolean> {
    if (this.isIdle()) return Promise.resolve(true);
    return new Promise((resolve) => {
      let timer: unknown;
      const wake = () => {
        if (timer !== undefined) this.timers.clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(wake);
      if (timeoutMs !== undefined) {
        timer = this.timers.setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== wake);
          resolve(false);
        }, timeoutMs);
      }
    });
  }
}
