// The per-chat send budget of one account: previews, typing, blocks and finals share it, so the
// platform's quota is spent on what matters (a final is never dropped; a preview edit is).
import { isRetryableSendError, RateLimitedError, SendError, type ChannelCapabilities, type SendPriority } from "@openclaw/plugin-sdk";
import { systemClock, type DeliveryClock } from "./clock.js";
import { ReplyQuotaBook } from "./reply-quota.js";
import { SendRetriesExhaustedError, type BudgetResult, type BudgetRunOptions, type SendBudgetOptions } from "./send-budget-types.js";
import { TokenBucket } from "./token-bucket.js";

export {
  SendRetriesExhaustedError,
  type BudgetDropReason,
  type BudgetResult,
  type BudgetRunOptions,
  type SendBudgetOptions,
} from "./send-budget-types.js";

interface Job {
  readonly droppable: boolean;
  /** Replies claimed from the quota; given back when the job is dropped before it started. */
  claim: { key: string; slots: number } | undefined;
  started: boolean;
  readonly send: () => Promise<unknown>;
  readonly supersedeKey: string | undefined;
  readonly signal: AbortSignal | undefined;
  rateLimited: number;
  transient: number;
  notBefore: number;
  done: boolean;
  resolve(result: BudgetResult<unknown>): void;
  reject(error: unknown): void;
  detach(): void;
}

interface ChatState {
  readonly key: string;
  readonly bucket: TokenBucket;
  queue: Job[];
  busy: boolean;
  pausedUntil: number;
}

const ABORTED = Object.freeze({ status: "dropped", reason: "aborted" } as const);
const PRESSURE = Object.freeze({ status: "dropped", reason: "pressure" } as const);
const SUPERSEDED = Object.freeze({ status: "dropped", reason: "superseded" } as const);
const QUOTA = Object.freeze({ status: "dropped", reason: "quota" } as const);

function rate(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!(v > 0)) throw new RangeError(`SendBudget: ${name} must be a positive number (got ${String(value)})`);
  return v;
}

function burst(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!(v >= 1)) throw new RangeError(`SendBudget: ${name} must be at least 1 (got ${String(value)})`);
  return v;
}

/**
 * A token bucket per chat plus one for the whole account, shared by every send of the account.
 *
 * - `final` and `block` sends are never dropped: they wait for a token, in strict FIFO order per
 *   chat (one send in flight per chat). A `RateLimitedError` pauses the chat for its
 *   `retryAfterMs` and the send is retried (up to `maxRateLimitedAttempts`, then
 *   `SendRetriesExhaustedError`); other retryable failures (`isRetryableSendError`: network
 *   errors, 5xx answers, `TransientSendError`) are retried with backoff (`maxTransientRetries`);
 *   any other error (e.g. `PermanentSendError`) rejects at once.
 * - `preview` and `typing` sends are droppable: dropped (`"pressure"`) while the chat is paused or
 *   a final/block is waiting, and when a final/block arrives while they wait; a waiting preview is
 *   replaced by a newer one with the same `supersedeKey` (`"superseded"`). Previews wait for a
 *   spare token; typing never waits (no spare token now means `"pressure"`). A 429 on a droppable
 *   send pauses the chat and drops it; other errors reject.
 * - With a per-inbound reply quota (`replyQuota`), a send that passes `inReplyTo` spends its
 *   `replySlots` of that inbound message's replies, claimed when it is queued and given back if it
 *   never leaves. `finalReserve` replies are kept for the final: a block may not take them
 *   (dropped `"quota"`, so its sender can carry the text in the final), a preview needs one more to
 *   remain and typing two more (typing is dropped first). A final always goes, even past the quota.
 */
export class SendBudget {
  readonly #clock: DeliveryClock;
  readonly #chatRate: number;
  readonly #chatBurst: number;
  readonly #global: TokenBucket;
  readonly #chatPreviewNeed: number;
  readonly #globalPreviewNeed: number;
  readonly #maxRateLimited: number;
  readonly #maxTransient: number;
  readonly #backoffMs: number;
  readonly #quota: ReplyQuotaBook | undefined;
  readonly #chats = new Map<string, ChatState>();
  /** Chats with queued jobs, in service order (rotated for fairness). */
  readonly #waiting = new Set<ChatState>();
  #sweepAt = 256;
  #timer: unknown = undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #pumping = false;
  #repump = false;

  constructor(options: SendBudgetOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#chatRate = rate(options.perChatRate, 1, "perChatRate");
    this.#chatBurst = burst(options.perChatBurst, 3, "perChatBurst");
    const globalRate = rate(options.globalRate, 30, "globalRate");
    const globalBurst = burst(options.globalBurst, Number.isFinite(globalRate) ? globalRate : 30, "globalBurst");
    this.#global = new TokenBucket(globalRate, globalBurst, this.#clock.now());
    const reserve = options.reserveForFinal ?? true;
    this.#chatPreviewNeed = reserve && this.#chatBurst >= 2 ? 2 : 1;
    this.#globalPreviewNeed = reserve && globalBurst >= 2 ? 2 : 1;
    this.#maxRateLimited = Math.max(1, Math.floor(options.maxRateLimitedAttempts ?? 8));
    this.#maxTransient = Math.max(0, Math.floor(options.maxTransientRetries ?? 3));
    this.#backoffMs = Math.max(0, options.transientBackoffMs ?? 500);
    this.#quota = options.replyQuota !== undefined ? new ReplyQuotaBook(options.replyQuota, options.finalReserve ?? 1) : undefined;
  }

  /**
   * Replies left for the inbound message `inReplyTo` in `chatKey` (`Infinity` without a reply quota
   * or an `inReplyTo`); the final's reserve included, so blocks may spend `repliesLeft - finalReserve`.
   */
  repliesLeft(chatKey: string, inReplyTo: string | undefined): number {
    if (this.#quota === undefined || inReplyTo === undefined) return Number.POSITIVE_INFINITY;
    return this.#quota.left(quotaKey(chatKey, inReplyTo), this.#clock.now());
  }

  /** Replies of each inbound message kept for its final (0 without a reply quota). */
  get finalReserve(): number {
    return this.#quota?.reserve ?? 0;
  }

  /**
   * Runs `send` for `chatKey` when the budget allows (see the class comment for the rules).
   * Resolves `{status:"sent", value}` or `{status:"dropped", reason}`; rejects with the send's
   * own error when it is not retried, or `SendRetriesExhaustedError` after too many 429s.
   */
  run<T>(chatKey: string, priority: SendPriority, send: () => Promise<T>, options: BudgetRunOptions = {}): Promise<BudgetResult<T>> {
    const signal = options.signal;
    if (signal?.aborted) return Promise.resolve(ABORTED);
    const now = this.#clock.now();
    const chat = this.#chat(chatKey, now);
    const droppable = priority === "preview" || priority === "typing";
    let replaced = -1;
    if (droppable) {
      if (chat.pausedUntil > now || chat.queue.some((job) => !job.droppable)) return Promise.resolve(PRESSURE);
      if (options.supersedeKey !== undefined) {
        replaced = chat.queue.findIndex((job) => job.supersedeKey === options.supersedeKey);
      }
      if (priority === "typing" && replaced < 0 && !this.#canStartNow(chat, now)) return Promise.resolve(PRESSURE);
    }
    const claim = this.#claim(chatKey, priority, options, now, replaced >= 0 ? chat.queue[replaced]! : undefined);
    if (claim === false) return Promise.resolve(QUOTA);
    if (!droppable) this.#dropDroppables(chat);
    return new Promise<BudgetResult<T>>((resolve, reject) => {
      const job: Job = {
        droppable,
        claim,
        started: false,
        send,
        supersedeKey: options.supersedeKey,
        signal,
        rateLimited: 0,
        transient: 0,
        notBefore: 0,
        done: false,
        resolve: resolve as (result: BudgetResult<unknown>) => void,
        reject,
        detach: () => {},
      };
      if (signal !== undefined) {
        const onAbort = (): void => this.#abortWaiting(chat, job);
        signal.addEventListener("abort", onAbort, { once: true });
        job.detach = () => signal.removeEventListener("abort", onAbort);
      }
      if (replaced >= 0) {
        const old = chat.queue[replaced]!;
        chat.queue[replaced] = job;
        this.#finish(old, SUPERSEDED);
      } else {
        chat.queue.push(job);
      }
      this.#waiting.add(chat);
      this.#pump();
    });
  }

  /** True while `chatKey` is paused by a rate limit. */
  isPaused(chatKey: string): boolean {
    const chat = this.#chats.get(chatKey);
    return chat !== undefined && chat.pausedUntil > this.#clock.now();
  }

  #chat(key: string, now: number): ChatState {
    let chat = this.#chats.get(key);
    if (chat !== undefined) return chat;
    if (this.#chats.size >= this.#sweepAt) this.#sweep(now);
    chat = { key, bucket: new TokenBucket(this.#chatRate, this.#chatBurst, now), queue: [], busy: false, pausedUntil: 0 };
    this.#chats.set(key, chat);
    return chat;
  }

  /** Forgets idle chats whose bucket is full again (they would be recreated identical). */
  #sweep(now: number): void {
    for (const [key, chat] of this.#chats) {
      if (!chat.busy && chat.queue.length === 0 && chat.pausedUntil <= now && chat.bucket.isFull(now)) {
        this.#chats.delete(key);
      }
    }
    this.#sweepAt = Math.max(256, this.#chats.size * 2);
  }

  #canStartNow(chat: ChatState, now: number): boolean {
    return (
      !chat.busy &&
      chat.queue.length === 0 &&
      chat.pausedUntil <= now &&
      chat.bucket.waitFor(this.#chatPreviewNeed, now) === 0 &&
      this.#global.waitFor(this.#globalPreviewNeed, now) === 0
    );
  }

  #dropDroppables(chat: ChatState): void {
    if (!chat.queue.some((job) => job.droppable)) return;
    const dropped = chat.queue.filter((job) => job.droppable);
    chat.queue = chat.queue.filter((job) => !job.droppable);
    if (chat.queue.length === 0) this.#waiting.delete(chat);
    for (const job of dropped) this.#finish(job, PRESSURE);
  }

  #abortWaiting(chat: ChatState, job: Job): void {
    const index = chat.queue.indexOf(job);
    if (index < 0) return; // in flight: its outcome decides
    chat.queue.splice(index, 1);
    if (chat.queue.length === 0) this.#waiting.delete(chat);
    this.#finish(job, ABORTED);
    this.#pump();
  }

  /**
   * Claims the replies a send spends from its inbound message's quota: undefined when it spends
   * none, false when the quota refuses it. A preview that replaces a waiting one takes over its claim.
   */
  #claim(chatKey: string, priority: SendPriority, options: BudgetRunOptions, now: number, replaced: Job | undefined) {
    if (this.#quota === undefined || options.inReplyTo === undefined) return undefined;
    const key = quotaKey(chatKey, options.inReplyTo);
    const slots = Math.max(0, Math.floor(options.replySlots ?? 1));
    if (slots === 0) return undefined;
    if (replaced?.claim !== undefined && replaced.claim.key === key && replaced.claim.slots === slots) {
      const taken = replaced.claim;
      replaced.claim = undefined;
      return taken;
    }
    return this.#quota.claim(key, priority, slots, now) ? { key, slots } : false;
  }

  #finish(job: Job, result: BudgetResult<unknown>): void {
    if (job.done) return;
    if (!job.started && job.claim !== undefined) this.#quota?.release(job.claim.key, job.claim.slots);
    job.done = true;
    job.detach();
    job.resolve(result);
  }

  #fail(job: Job, error: unknown): void {
    if (job.done) return;
    job.done = true;
    job.detach();
    job.reject(error);
  }

  #pump(): void {
    if (this.#pumping) {
      this.#repump = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#repump = false;
        this.#pass();
      } while (this.#repump);
    } finally {
      this.#pumping = false;
    }
  }

  /** Starts every chat head that may go now and arms a timer for the earliest one that may not. */
  #pass(): void {
    const now = this.#clock.now();
    let wake = Number.POSITIVE_INFINITY;
    for (const chat of [...this.#waiting]) {
      if (chat.busy) continue;
      const job = chat.queue[0];
      if (job === undefined) {
        this.#waiting.delete(chat);
        continue;
      }
      const notBefore = Math.max(chat.pausedUntil, job.notBefore);
      if (notBefore > now) {
        wake = Math.min(wake, notBefore);
        continue;
      }
      const wait = Math.max(
        chat.bucket.waitFor(job.droppable ? this.#chatPreviewNeed : 1, now),
        this.#global.waitFor(job.droppable ? this.#globalPreviewNeed : 1, now),
      );
      if (wait > 0) {
        wake = Math.min(wake, now + wait);
        continue;
      }
      chat.queue.shift();
      this.#waiting.delete(chat);
      if (chat.queue.length > 0) this.#waiting.add(chat); // to the back: fair share of the global bucket
      chat.bucket.take(now);
      this.#global.take(now);
      this.#start(chat, job);
    }
    this.#arm(wake, now);
  }

  #arm(wake: number, now: number): void {
    if (wake === Number.POSITIVE_INFINITY || wake >= this.#timerAt) return;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timerAt = wake;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        this.#timerAt = Number.POSITIVE_INFINITY;
        this.#pump();
      },
      Math.max(0, wake - now),
    );
  }

  #start(chat: ChatState, job: Job): void {
    chat.busy = true;
    job.started = true;
    let pending: Promise<unknown>;
    try {
      pending = Promise.resolve(job.send());
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        chat.busy = false;
        this.#finish(job, { status: "sent", value });
        this.#pump();
      },
      (error: unknown) => {
        chat.busy = false;
        this.#failed(chat, job, error);
        this.#pump();
      },
    );
  }

  #failed(chat: ChatState, job: Job, error: unknown): void {
    const now = this.#clock.now();
    if (error instanceof RateLimitedError) this.#pause(chat, error.retryAfterMs, now);
    if (job.signal?.aborted) return this.#finish(job, ABORTED);
    if (job.droppable) return error instanceof RateLimitedError ? this.#finish(job, PRESSURE) : this.#fail(job, error);
    if (error instanceof RateLimitedError) {
      job.rateLimited += 1;
      if (job.rateLimited >= this.#maxRateLimited) {
        const message = `gave up after ${job.rateLimited} rate-limit answers from the platform for chat ${chat.key} (last retry after ${error.retryAfterMs} ms)`;
        return this.#fail(job, new SendRetriesExhaustedError(message, job.rateLimited + job.transient, { cause: error }));
      }
      return this.#requeue(chat, job);
    }
    if (isRetryableSendError(error) && job.transient < this.#maxTransient) {
      job.transient += 1;
      const asked = error instanceof SendError ? (error.retryAfterMs ?? 0) : 0;
      job.notBefore = now + Math.max(asked, this.#backoffMs * 2 ** (job.transient - 1));
      return this.#requeue(chat, job);
    }
    this.#fail(job, error);
  }

  #requeue(chat: ChatState, job: Job): void {
    chat.queue.unshift(job);
    this.#waiting.add(chat);
  }

  /** Pauses a chat after a 429: nothing is sent before `retryAfterMs`, waiting previews are dropped. */
  #pause(chat: ChatState, retryAfterMs: number, now: number): void {
    const delay = Number.isFinite(retryAfterMs) && retryAfterMs > 0 ? retryAfterMs : 1000;
    chat.pausedUntil = Math.max(chat.pausedUntil, now + delay);
    chat.bucket.holdUntil(chat.pausedUntil, 1);
    this.#dropDroppables(chat);
  }
}

/**
 * The send budget of one account of a channel, paced by the channel's declared
 * `capabilities.sendRate` (defaults where it is silent) and keeping its `capabilities.replyQuota`;
 * `options` override single limits.
 */
export function sendBudgetFor(
  capabilities: Pick<ChannelCapabilities, "sendRate" | "replyQuota">,
  options: SendBudgetOptions = {},
): SendBudget {
  const rate = capabilities.sendRate ?? {};
  const declared: SendBudgetOptions = {};
  if (capabilities.replyQuota !== undefined) declared.replyQuota = capabilities.replyQuota;
  if (rate.perChat !== undefined) declared.perChatRate = rate.perChat;
  if (rate.perChatBurst !== undefined) declared.perChatBurst = rate.perChatBurst;
  if (rate.global !== undefined) declared.globalRate = rate.global;
  if (rate.globalBurst !== undefined) declared.globalBurst = rate.globalBurst;
  return new SendBudget({ ...declared, ...options });
}

function quotaKey(chatKey: string, inReplyTo: string): string {
  return `${chatKey}\u0000${inReplyTo}`;
}
