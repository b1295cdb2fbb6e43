// Runs an async task at most once per interval, one run at a time, and always once more after the
// last request (a trailing run), so a preview catches up with the text without editing per delta.
import type { DeliveryClock } from "./clock.js";

/** Internal: the throttle behind the preview controller and the progress draft. */
export class Pacer {
  readonly #task: () => Promise<void>;
  readonly #intervalMs: number;
  readonly #clock: DeliveryClock;
  #requested = false;
  #running: Promise<void> | null = null;
  #timer: unknown = undefined;
  #lastSendAt = Number.NEGATIVE_INFINITY;
  #stopped = false;

  constructor(task: () => Promise<void>, intervalMs: number, clock: DeliveryClock) {
    this.#task = task;
    this.#intervalMs = intervalMs;
    this.#clock = clock;
  }

  /** Asks for a run as soon as the interval since the last send allows. */
  request(): void {
    if (this.#stopped) return;
    this.#requested = true;
    if (this.#running === null) this.#schedule();
  }

  /** Records that a send left, or was refused, now: the next run waits the interval from here. */
  markAttempt(): void {
    this.#lastSendAt = this.#clock.now();
  }

  /** Cancels pending runs for good; resolves when the run in flight (if any) has ended. */
  stop(): Promise<void> {
    this.#stopped = true;
    this.#requested = false;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    return this.#running ?? Promise.resolve();
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    const wait = this.#lastSendAt + this.#intervalMs - this.#clock.now();
    if (wait <= 0) {
      this.#start();
      return;
    }
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#start();
    }, wait);
  }

  #start(): void {
    if (!this.#requested || this.#stopped || this.#running !== null) return;
    this.#requested = false;
    const run = (async () => {
      try {
        await this.#task();
      } catch {
        // The task reports its own failures; the pacer only paces.
      }
    })();
    this.#running = run.then(() => {
      this.#running = null;
      if (this.#requested) this.#schedule();
    });
  }
}
