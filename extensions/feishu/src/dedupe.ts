/**
 * Feishu delivers an event again when it got no answer in time (and sometimes anyway): the ids of
 * recent events and messages are remembered in the account's cursor store, so a redelivery is
 * acknowledged without a second answer, also after a restart.
 */

/** The cursor key of the remembered ids. */
export const SEEN_CURSOR_KEY = "feishu.seen";

/** The store the ids live in (`AccountContext.cursor`). */
export interface SeenStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** The last `size` event and message ids handed to core, persisted after each one. */
export class SeenIds {
  readonly #ids: Set<string>;
  /** Ids being handed to core right now (a redelivery during the hand-off waits for its outcome). */
  readonly #pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly store: SeenStore,
    private readonly size = 2000,
  ) {
    let ids: string[] = [];
    try {
      const parsed = JSON.parse(store.get(SEEN_CURSOR_KEY) ?? "[]") as unknown;
      if (Array.isArray(parsed)) ids = parsed.filter((v): v is string => typeof v === "string");
    } catch {
      ids = [];
    }
    this.#ids = new Set(ids.slice(-size));
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /**
   * Runs `take` once for a message known by `ids` (its event id and message id): resolves false
   * without running it when any id was seen (or is being taken right now and is taken); the ids are
   * remembered only after `take` resolved, so a message core did not record comes again.
   */
  async once(ids: readonly string[], take: () => Promise<void>): Promise<boolean> {
    if (ids.some((id) => this.#ids.has(id))) return false;
    for (const id of ids) {
      const pending = this.#pending.get(id);
      if (pending !== undefined) return (await pending.catch(() => false)) ? false : this.once(ids, take);
    }
    const run = take().then(() => true);
    for (const id of ids) this.#pending.set(id, run);
    try {
      await run;
      for (const id of ids) this.#ids.add(id);
      while (this.#ids.size > this.size) this.#ids.delete(this.#ids.values().next().value!);
      this.store.set(SEEN_CURSOR_KEY, JSON.stringify([...this.#ids]));
      return true;
    } finally {
      for (const id of ids) this.#pending.delete(id);
    }
  }
}
