// The block coalescer (reference §8, "block-reply-coalescer"): merges the blocks the chunker
// emits before they are sent, so a chat is not spammed with one-liners.
import { isBlank, type BreakPreference } from "@openclaw/plugin-sdk";

/** Timer functions; inject fakes in tests. Defaults to the global setTimeout/clearTimeout. */
export interface CoalescerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface BlockCoalescerOptions {
  /** A non-forced flush (the idle timer) holds text shorter than this. */
  minChars: number;
  /** Never merge past this many characters; a buffer that reaches it is sent at once. */
  maxChars: number;
  /** Send what is pending after this long without a new block (the timer is re-armed on enqueue). */
  idleMs: number;
  /** Put between merged blocks; see `joinerForBreakPreference`. */
  joiner: string;
  /**
   * Receives each merged block, in order, synchronously from `enqueue`, `flush` or the idle
   * timer. It must not throw: queue the actual (async) send and handle its errors there.
   */
  onFlush: (text: string) => void;
  timers?: CoalescerTimers;
}

export interface EnqueueOptions {
  /**
   * Blocks merge only with blocks of the same key (e.g. a reply target, or "reasoning" vs "text");
   * a block with another key first flushes what is buffered. Default: undefined (all merge).
   */
  mergeKey?: string;
}

export interface BlockCoalescer {
  /** Adds a block: merges it with the buffer, or flushes first when it would pass maxChars. */
  enqueue(text: string, options?: EnqueueOptions): void;
  /**
   * Sends the buffer. Forced (the default, use at the end of the reply) it always sends; not
   * forced, a buffer shorter than minChars is kept and the idle timer re-armed.
   */
  flush(options?: { force?: boolean }): void;
  /** True while text waits to be sent. */
  readonly hasBuffered: boolean;
  /** Cancels the timer and drops the buffer (abort); later calls do nothing. */
  stop(): void;
}

/** The text put between merged blocks: paragraph -> "\n\n", newline -> "\n", sentence -> " ". */
export function joinerForBreakPreference(preference: BreakPreference): string {
  if (preference === "sentence") return " ";
  if (preference === "newline") return "\n";
  return "\n\n";
}

const globalTimers: CoalescerTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Creates a coalescer; see `BlockCoalescerOptions` for the knobs. */
export function createBlockCoalescer(options: BlockCoalescerOptions): BlockCoalescer {
  const timers = options.timers ?? globalTimers;
  const maxChars = Math.max(1, Math.floor(options.maxChars));
  const minChars = Math.min(Math.max(0, Math.floor(options.minChars)), maxChars);
  const idleMs = Math.max(0, options.idleMs);
  const joiner = options.joiner;
  const joinerIsWhitespace = joiner.length > 0 && isBlank(joiner);
  let buffer = "";
  let bufferKey: string | undefined;
  let timer: unknown;
  let timerArmed = false;
  let stopped = false;

  const clearTimer = (): void => {
    if (timerArmed) timers.clearTimeout(timer);
    timerArmed = false;
  };
  const armTimer = (): void => {
    clearTimer();
    timer = timers.setTimeout(() => {
      timerArmed = false;
      flush({ force: false });
    }, idleMs);
    timerArmed = true;
  };
  const sendBuffer = (): void => {
    clearTimer();
    const text = buffer;
    buffer = "";
    bufferKey = undefined;
    if (text) options.onFlush(text);
  };
  const flush = (flushOptions: { force?: boolean } = {}): void => {
    if (stopped || !buffer) return;
    if (flushOptions.force === false && buffer.length < minChars) {
      armTimer();
      return;
    }
    sendBuffer();
  };

  return {
    enqueue(text, enqueueOptions = {}) {
      if (stopped || isBlank(text)) return;
      const key = enqueueOptions.mergeKey;
      if (buffer && key !== bufferKey) sendBuffer();
      if (!buffer) {
        buffer = text;
        bufferKey = key;
      } else {
        const joined = (joinerIsWhitespace ? buffer.trimEnd() : buffer) + joiner + text;
        if (joined.length > maxChars) {
          sendBuffer();
          buffer = text;
          bufferKey = key;
        } else buffer = joined;
      }
      if (buffer.length >= maxChars) sendBuffer();
      else armTimer();
    },
    flush,
    get hasBuffered() {
      return buffer.length > 0;
    },
    stop() {
      clearTimer();
      buffer = "";
      stopped = true;
    },
  };
}
