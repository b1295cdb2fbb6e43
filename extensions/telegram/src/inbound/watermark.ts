/**
 * The restart watermark of long polling: the lowest update id not yet handed to core. Updates
 * finish out of order (chats run concurrently), so the watermark only moves past an update once
 * every older one has finished; it is persisted then, and a restart resumes from it without
 * replaying what core already has.
 */
export class UpdateWatermark {
  readonly #pending = new Set<number>();
  #next: number;
  #highest = -1;

  /**
   * @param start the first update id not handled yet (0 when unknown).
   * @param persist called with the new watermark each time it moves forward.
   */
  constructor(
    start: number,
    private readonly persist: (next: number) => void,
  ) {
    this.#next = start;
  }

  /** The first update id not handled yet. */
  get next(): number {
    return this.#next;
  }

  /** Marks an update as taken. */
  begin(updateId: number): void {
    this.#pending.add(updateId);
    if (updateId > this.#highest) this.#highest = updateId;
  }

  /** Marks an update as handled; persists the watermark when it moves. */
  finish(updateId: number): void {
    this.#pending.delete(updateId);
    let lowest = this.#highest + 1;
    for (const id of this.#pending) if (id < lowest) lowest = id;
    if (lowest > this.#next) {
      this.#next = lowest;
      this.persist(lowest);
    }
  }
}
