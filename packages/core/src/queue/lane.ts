// The per-session lane: what waits, what runs, and the steering buffer of the run.
import type { SteeringText, TurnResult } from "../agent/index.js";
import { leftoverSteeringText } from "./text.js";
import type { CancelReason, QueueMessage } from "./types.js";

/** How a message's wait ended: answered by a turn, failed, or cancelled before it ran. */
export interface Settled {
  result?: TurnResult;
  error?: unknown;
  cancelled?: CancelReason;
}

export interface Deferred {
  promise: Promise<Settled>;
  /** Idempotent: the first call wins. */
  settle(outcome: Settled): void;
}

export function deferred(): Deferred {
  let resolve!: (outcome: Settled) => void;
  let done = false;
  const promise = new Promise<Settled>((r) => (resolve = r));
  return {
    promise,
    settle: (outcome) => {
      if (done) return;
      done = true;
      resolve(outcome);
    },
  };
}

/** A message (or a group standing for several) waiting in a session lane. */
export interface Entry {
  id: string;
  /** Arrival order across the queue; keeps the lane FIFO when leftovers are put back. */
  seq: number;
  message: QueueMessage;
  /** The text the turn gets (for a leftover group, already joined). */
  text: string;
  /** `collect` entries next to each other run as one turn. */
  kind: "turn" | "collect";
  /** Runs without waiting for the quiet window (a direct run, an interrupt, leftover steering). */
  immediate: boolean;
  settle(outcome: Settled): void;
}

/** A message pushed into an active run's steering buffer. */
export interface SteerItem {
  seq: number;
  message: QueueMessage;
  settle(outcome: Settled): void;
  /** steer-backlog: a follow-up copy is queued too, so a leftover must not run a second time. */
  backlogCopy?: Promise<Settled>;
}

export interface ActiveRun {
  /** The id of the first message of the turn; `abort({ runId })` accepts it, any message id of the turn, or the runtime's run id. */
  turnId: string;
  entryIds: string[];
  /** The runtime's run id, known from its `run_start` event. */
  runId?: string;
  controller: AbortController;
  /** Waiting to be drained, FIFO. */
  steering: SteerItem[];
  /** Drained into the run; they share its result. */
  injected: SteerItem[];
  /** False once the run is ending or aborted: later messages wait for a turn of their own. */
  accepting: boolean;
  abortReason?: CancelReason;
  /** When the run got its global slot. */
  startedAt?: number;
}

export interface Lane {
  key: string;
  queue: Entry[];
  active?: ActiveRun;
  /** Snippets of messages dropped by `drop: "summarize"`, told to the next turn. */
  dropped: string[];
  /** When the newest message arrived; the quiet window counts from here. */
  lastArrival: number;
  timer?: unknown;
}

/** Puts an entry back in arrival order. */
export function insertBySeq(queue: Entry[], entry: Entry): void {
  const index = queue.findIndex((e) => e.seq > entry.seq);
  if (index < 0) queue.push(entry);
  else queue.splice(index, 0, entry);
}

/** The next turn's entries: the head alone, or the head and the collect entries right behind it. */
export function takeBatch(queue: Entry[]): Entry[] {
  const head = queue[0];
  if (!head) return [];
  let count = 1;
  if (head.kind === "collect") while (queue[count]?.kind === "collect") count += 1;
  return queue.splice(0, count);
}

/** How many collect entries sit at the tail (the group a new collect message joins). */
export function trailingCollect(queue: readonly Entry[]): number {
  let count = 0;
  for (let i = queue.length - 1; i >= 0 && queue[i]!.kind === "collect"; i -= 1) count += 1;
  return count;
}

/**
 * Hands the run everything in its steering buffer, FIFO, at once; nothing once the run is aborted.
 * A message with inbox keys comes with them (`{ text, inboundKeys }`), any other as its text.
 */
export function drainSteering(active: ActiveRun): SteeringText[] {
  if (active.controller.signal.aborted) return [];
  const items = active.steering.splice(0);
  active.injected.push(...items);
  return items.map((i) => (i.message.inboundKeys?.length ? { text: i.message.text, inboundKeys: i.message.inboundKeys } : i.message.text));
}

/**
 * The inbox keys of the messages a turn's opening text stands for: in arrival order, except that
 * the keys of `owner` (the message whose handler gets the turn's events, and so shows its reply)
 * come last. A replay after a crash tells the turn's own message by that (see `planSessionReplay`).
 */
export function inboundKeysOf(messages: readonly QueueMessage[], owner: QueueMessage | undefined): string[] {
  const others = messages.filter((m) => m !== owner).flatMap((m) => m.inboundKeys ?? []);
  return owner?.inboundKeys ? [...others, ...owner.inboundKeys] : others;
}

/**
 * What to do with steering the run never took, once it ended: with a cancel reason (aborted run,
 * closing queue) each message resolves as cancelled; a steer-backlog message waits for its
 * queued copy; the rest become ONE follow-up turn (in arrival order, joined) that runs without
 * a quiet window. Returns that turn's entry, if any.
 */
export function leftoverEntry(active: ActiveRun, cancelReason: CancelReason | undefined, id: string): Entry | undefined {
  const leftovers: SteerItem[] = [];
  for (const item of active.steering.splice(0)) {
    if (cancelReason) item.settle({ cancelled: cancelReason });
    else if (item.backlogCopy) void item.backlogCopy.then(item.settle);
    else leftovers.push(item);
  }
  if (leftovers.length === 0) return undefined;
  const newest = leftovers[leftovers.length - 1]!.message;
  const owner = [...leftovers].reverse().find((i) => i.message.onEvent)?.message;
  const onEvent = owner?.onEvent;
  const inboundKeys = inboundKeysOf(
    leftovers.map((i) => i.message),
    owner,
  );
  return {
    id,
    seq: leftovers[0]!.seq,
    message: { ...newest, ...(onEvent ? { onEvent } : {}), ...(inboundKeys.length ? { inboundKeys } : {}) },
    text: leftoverSteeringText(leftovers.map((i) => i.message.text)),
    kind: "turn",
    immediate: true,
    settle: (outcome) => leftovers.forEach((i) => i.settle(outcome)),
  };
}
