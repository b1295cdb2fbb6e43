/**
 * Per-key sequential execution: tasks with the same key run one after another in submission
 * order; tasks with different keys run concurrently.
 */
export class KeyedLanes {
  readonly #tails = new Map<string, Promise<void>>();
  #active = 0;
  #idleWaiters: (() => void)[] = [];

  constructor(private readonly onError: (key: string, error: unknown) => void) {}

  /** Tasks submitted and not finished yet. */
  get size(): number {
    return this.#active;
  }

  /** Queues `task` behind earlier tasks of `key`. A failing task is reported and does not block the lane. */
  run(key: string, task: () => Promise<void>): Promise<void> {
    this.#active += 1;
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous.then(task).catch((error: unknown) => this.onError(key, error));
    const tail = next.finally(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
      this.#active -= 1;
      if (this.#active === 0) for (const wake of this.#idleWaiters.splice(0)) wake();
    });
    this.#tails.set(key, tail);
    return tail;
  }

  /** Resolves when no task is queued or running. */
  idle(): Promise<void> {
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }
}
