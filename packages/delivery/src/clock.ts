/** Time and timers used by the delivery helpers; tests inject a fake one. */
export interface DeliveryClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer made by `setTimeout` (a handle already fired or cleared is ignored). */
  clearTimeout(handle: unknown): void;
}

/**
 * The real clock. It looks the globals up on every call, so test frameworks that replace
 * `Date.now` and `setTimeout` (vitest's fake timers) also drive it.
 */
export const systemClock: DeliveryClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
