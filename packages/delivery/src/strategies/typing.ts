// "typing…" for as long as a reply is being written: one indicator now, renewed every few seconds.
import type { DeliveryClock } from "../clock.js";

/** How often the indicator is renewed; platforms show it for about 5 s. */
export const TYPING_RENEW_MS = 5000;

/** Internal: calls `tick` at once and every `TYPING_RENEW_MS` until `stop`. */
export class TypingLoop {
  readonly #tick: () => void;
  readonly #clock: DeliveryClock;
  #timer: unknown = undefined;
  #running = false;

  constructor(tick: () => void, clock: DeliveryClock) {
    this.#tick = tick;
    this.#clock = clock;
  }

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#next();
  }

  stop(): void {
    this.#running = false;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #next(): void {
    if (!this.#running) return;
    this.#tick();
    this.#timer = this.#clock.setTimeout(() => this.#next(), TYPING_RENEW_MS);
    // A real timer must not keep the process alive on its own.
    (this.#timer as { unref?: () => void } | undefined)?.unref?.();
  }
}
