/**
 * `msg_seq` numbers. The platform refuses a repeated `(msg_id, msg_seq)`, so every send takes a
 * number from one counter of the account that only rises, kept in the account's cursor so a
 * restart continues above every number used before.
 */

/** The cursor key of the next `msg_seq`. */
export const MSG_SEQ_CURSOR_KEY = "qqbot:msgSeq";

/** The largest `msg_seq` used before the counter wraps to 1 (the platform takes 32-bit numbers). */
const MAX_SEQ = 2_000_000_000;

/** Hands out `msg_seq` numbers, none twice (also across restarts sharing the cursor). */
export class MsgSeqCounter {
  readonly #cursor: { get(key: string): string | undefined; set(key: string, value: string): void };
  #next: number;

  constructor(cursor: { get(key: string): string | undefined; set(key: string, value: string): void }) {
    this.#cursor = cursor;
    const stored = Number(cursor.get(MSG_SEQ_CURSOR_KEY));
    this.#next = Number.isSafeInteger(stored) && stored > 0 && stored <= MAX_SEQ ? stored : 1;
  }

  /** The next number, persisted before it is used. */
  take(): number {
    const seq = this.#next;
    this.#next = seq >= MAX_SEQ ? 1 : seq + 1;
    this.#cursor.set(MSG_SEQ_CURSOR_KEY, String(this.#next));
    return seq;
  }
}
