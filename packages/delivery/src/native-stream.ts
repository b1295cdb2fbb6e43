// A platform-native stream of one reply (Feishu CardKit card, QQ stream_messages): opened with the
// first text, updated paced through the send budget, finished with the final, recorded in the
// ledger, and replaced by ordinary messages when the stream cannot be opened or finished.
import {
  chunkText,
  type ChannelOutbound,
  type ChunkMode,
  type NativeStream,
  type OutboundTarget,
  type SendOptions,
  type SendPriority,
} from "@openclaw/plugin-sdk";
import { systemClock, type DeliveryClock } from "./clock.js";
import { sendParts } from "./final-send.js";
import { sentIds, type DeliveryInfo, type DeliveryLedger } from "./ledger.js";
import { Pacer } from "./pacer.js";
import { splitForRollover } from "./rollover.js";
import { commonPrefixLength } from "./segments.js";
import type { SendBudget } from "./send-budget.js";

/** Characters the stream keeps free while streaming, so the final can close a code fence. */
const FENCE_ROOM = 8;

/** Everything a `NativeStreamController` needs; one controller per reply. */
export interface NativeStreamControllerOptions {
  /** The account's sending side (a channel without `openStream` gets ordinary messages). */
  outbound: ChannelOutbound;
  target: OutboundTarget;
  /** The account's send budget: the stream is opened as a `"block"`, updated as `"preview"`, finished as `"final"`. */
  budget: SendBudget;
  chatKey: string;
  /** The channel's semantics (`capabilities.nativeStream`): `replace` takes the whole text, `append` only what is new. */
  mode: "replace" | "append";
  /** Where the final is recorded, so a retry or restart never delivers it twice. */
  ledger: DeliveryLedger;
  /** Ledger key of the reply's final (stable across retries and restarts). */
  ledgerKey: string;
  /** Extra details stored with the delivery (channel, account, target). */
  info?: Omit<DeliveryInfo, "chunks">;
  /**
   * Longest text one message (and so the stream) may hold: the stream stops growing before it,
   * and the final continues in ordinary messages from exactly where the stream stopped.
   */
  textLimit: number;
  /**
   * Longest text the stream itself may hold (default `textLimit`); `Infinity` for a stream that
   * continues into further messages on its own. Text sent as ordinary messages still splits at
   * `textLimit`.
   */
  streamLimit?: number;
  /** How text sent as ordinary messages is split (default "length"). */
  chunkMode?: ChunkMode;
  /** At most one update per this many ms (default 1000, at least 100). */
  throttleMs?: number;
  format: "markdown" | "plain";
  /** The reply's stable key; every call derives its own from it. */
  idempotencyKey: string;
  /** The run's signal: when it fires, updates stop and `finalize` rejects. */
  signal: AbortSignal;
  /** The inbound message the reply answers, passed on every call as `SendOptions.inReplyTo`. */
  inReplyTo?: string;
  clock?: DeliveryClock;
}

/** How `NativeStreamController.finalize` delivered the final. */
export interface NativeFinalResult {
  /** The messages holding the final, in order (the stream's first, then any continuation). */
  messageIds: string[];
  /** "stream": finished in the stream; "messages": sent as ordinary messages; "ledger": delivered before. */
  via: "stream" | "messages" | "ledger";
  /** Why ordinary messages were used instead of the stream, when a stream was meant to carry it. */
  fallback?: string;
}

/**
 * The native stream of one reply. Feed the whole reply so far to `update`; call `finalize` once
 * with the final text. Updates are paced (one in flight, intermediate text coalesced): a `replace`
 * stream gets the whole text so far, an `append` stream only what it does not have yet. Whitespace
 * alone never opens a stream. The final is recorded in the ledger and delivered exactly once: it
 * finishes the stream, or, when the stream could not be opened or finished, goes out as ordinary
 * messages. Text the stream showed is not shown again unless the platform refused to finish it.
 */
export class NativeStreamController {
  readonly #o: NativeStreamControllerOptions;
  readonly #limit: number;
  readonly #pacer: Pacer;
  readonly #previewAbort = new AbortController();
  readonly #previewSignal: AbortSignal;
  #state: "streaming" | "finalizing" | "done" | "aborted" = "streaming";
  #stream: NativeStream | undefined;
  /** Why there is no stream (open failed, refused or impossible), or why updates stopped. */
  #unavailable: string | undefined;
  #broken: string | undefined;
  #failures = 0;
  #text = "";
  /** What the stream shows: the whole text (replace), or the text appended so far (append). */
  #shown = "";
  #final: Promise<NativeFinalResult> | undefined;

  constructor(options: NativeStreamControllerOptions) {
    this.#o = options;
    this.#limit = Math.max(1, Math.floor(options.streamLimit ?? options.textLimit));
    this.#previewSignal = AbortSignal.any([options.signal, this.#previewAbort.signal]);
    this.#pacer = new Pacer(() => this.#flush(), Math.max(100, options.throttleMs ?? 1000), options.clock ?? systemClock);
    if (typeof options.outbound.openStream !== "function") this.#unavailable = "the channel has no native stream";
    if (options.signal.aborted) this.abort();
    else options.signal.addEventListener("abort", () => this.abort(), { once: true });
  }

  /**
   * The reply so far (the whole text; it must only grow for an `append` stream). Opens the stream
   * on the first non-blank text and schedules a paced update; ignored after `finalize` or `abort`.
   */
  update(fullText: string): void {
    if (this.#state !== "streaming") return;
    this.#text = fullText;
    if (this.#unavailable !== undefined || this.#broken !== undefined || fullText.trim() === "") return;
    this.#pacer.request();
  }

  /** Stops updates and ends an open stream without a final (the run failed or was aborted). */
  abort(reason = "the reply was aborted"): void {
    if (this.#state === "streaming") this.#state = "aborted";
    this.#previewAbort.abort();
    void this.#pacer.stop();
    if (this.#state === "aborted") this.#endQuietly(reason);
  }

  /** Delivers `finalText` exactly once (repeated calls share the first call's promise). */
  finalize(finalText: string): Promise<NativeFinalResult> {
    this.#final ??= this.#finish(finalText);
    return this.#final;
  }

  async #finish(finalText: string): Promise<NativeFinalResult> {
    this.#state = "finalizing";
    this.#previewAbort.abort();
    await this.#pacer.stop();
    try {
      return await this.#deliver(finalText);
    } catch (error) {
      this.#endQuietly("the final reply could not be delivered");
      throw error;
    } finally {
      this.#state = "done";
    }
  }

  async #deliver(finalText: string): Promise<NativeFinalResult> {
    const stream = this.#stream;
    if (stream === undefined) return this.#sendMessages(chunkText(finalText, this.#chunkOptions()), this.#unavailable);
    const plan = this.#plan(finalText);
    if (plan === undefined) {
      this.#endQuietly("the final reply does not continue the streamed text", "finish");
      const why = "the final reply does not continue what the append stream showed; it was sent as new messages";
      return this.#sendMessages(chunkText(finalText, this.#chunkOptions()), why);
    }
    const inReplyTo = this.#o.inReplyTo !== undefined ? { inReplyTo: this.#o.inReplyTo } : {};
    const begun = this.#o.ledger.begin(this.#o.ledgerKey, { ...this.#o.info, ...inReplyTo, chunks: plan.chunks });
    if (begun.alreadyDelivered || begun.messageIds.length > 0) {
      // Delivered (or begun) by an earlier attempt: this stream is not the reply's message.
      this.#endQuietly("the reply was delivered before");
      if (begun.alreadyDelivered) return { messageIds: begun.messageIds, via: "ledger" };
      return this.#sendMessages(plan.chunks, undefined);
    }
    try {
      const sent = await this.#run("final", () => stream.finish(plan.payload));
      this.#stream = undefined;
      this.#o.ledger.recordPart(this.#o.ledgerKey, 0, sentIds(sent));
    } catch (error) {
      if (this.#o.signal.aborted) throw error;
      this.#endQuietly("the stream could not be finished");
      return this.#sendMessages(plan.chunks, `the native stream could not be finished (${messageOf(error)})`);
    }
    // The continuation (when the final outgrew one message) follows as ordinary messages.
    const delivered = await this.#sendMessages(plan.chunks, undefined);
    return { messageIds: delivered.messageIds, via: "stream" };
  }

  /**
   * The final as the stream carries it: the part that fits (what `finish` gets: all of it for a
   * replace stream, the rest after what was appended for an append one), and the chunks of the
   * whole final (that part first, then the continuation as ordinary messages). Undefined when an
   * append stream showed text the final does not start with.
   */
  #plan(finalText: string): { payload: string; chunks: string[] } | undefined {
    const append = this.#o.mode === "append";
    if (append && !finalText.startsWith(this.#shown)) return undefined;
    let head = finalText;
    let tail = "";
    if (finalText.length > this.#limit) {
      // The stream keeps at least what the user has seen in it, so the continuation never repeats it.
      const split = splitForRollover(finalText, this.#limit, commonPrefixLength(finalText, this.#shown));
      head = finalText.slice(0, split.cut) + split.closeFence;
      tail = split.reopenFence + finalText.slice(split.resume);
    }
    return {
      payload: append ? head.slice(this.#shown.length) : head,
      chunks: [head, ...chunkText(tail, this.#chunkOptions())],
    };
  }

  /** Sends `chunks` (after any part already recorded) as ordinary messages under the ledger key. */
  async #sendMessages(chunks: readonly string[], fallback: string | undefined): Promise<NativeFinalResult> {
    const o = this.#o;
    const result = await sendParts({
      outbound: o.outbound,
      budget: o.budget,
      chatKey: o.chatKey,
      target: o.target,
      chunks,
      key: o.ledgerKey,
      ledger: o.ledger,
      format: o.format,
      signal: o.signal,
      ...(o.inReplyTo !== undefined ? { inReplyTo: o.inReplyTo } : {}),
      ...(o.info !== undefined ? { info: o.info } : {}),
    });
    if (result.alreadyDelivered) return { messageIds: result.messageIds, via: "ledger" };
    return { messageIds: result.messageIds, via: "messages", ...(fallback !== undefined ? { fallback } : {}) };
  }

  /** The paced pass: opens the stream if needed, then brings it up to date. */
  async #flush(): Promise<void> {
    if (this.#state !== "streaming" || this.#broken !== undefined || this.#unavailable !== undefined) return;
    if (this.#stream === undefined && !(await this.#open())) return;
    await this.#push(this.#stream!);
  }

  async #open(): Promise<boolean> {
    const { outbound, target } = this.#o;
    this.#pacer.markAttempt();
    try {
      // The call itself gets the run's signal: a stream opened half-way would be an orphan.
      const options = this.#options("block", "open", this.#o.signal);
      const result = await this.#o.budget.run(this.#o.chatKey, "block", () => outbound.openStream!(target, options), {
        signal: this.#previewSignal,
        ...this.#replies(1),
      });
      if (result.status === "dropped") {
        if (result.reason !== "aborted") this.#unavailable = `there was no room to open the native stream (${result.reason})`;
        return false;
      }
      if (result.value === null) {
        this.#unavailable = "the channel cannot stream to this chat";
        return false;
      }
      this.#stream = result.value;
      if (this.#state === "aborted") this.#endQuietly("the reply was aborted");
      return this.#state === "streaming";
    } catch (error) {
      this.#unavailable = `the native stream could not be opened (${messageOf(error)})`;
      return false;
    }
  }

  async #push(stream: NativeStream): Promise<void> {
    const append = this.#o.mode === "append";
    let next = "";
    const send = async (): Promise<boolean> => {
      this.#pacer.markAttempt();
      // The newest text at the moment the update leaves (it may have grown while waiting).
      next = this.#head(this.#text);
      if (next === this.#shown || !next.startsWith(append ? this.#shown : "")) return false;
      await stream.update(append ? next.slice(this.#shown.length) : next);
      return true;
    };
    try {
      const result = await this.#o.budget.run(this.#o.chatKey, "preview", send, {
        supersedeKey: `${this.#o.idempotencyKey}#stream`,
        signal: this.#previewSignal,
        replySlots: 0,
      });
      if (result.status === "dropped") {
        this.#pacer.markAttempt();
        if (result.reason !== "aborted") this.#pacer.request();
        return;
      }
      if (result.value) this.#shown = next;
      this.#failures = 0;
    } catch (error) {
      // An append that failed may or may not have landed: appending again could repeat it.
      if (append || ++this.#failures >= 3) this.#broken = `updating the native stream failed (${messageOf(error)})`;
      else this.#pacer.request();
    }
  }

  /** What the stream shows of `text` while streaming: all of it, or a prefix that leaves room to finish. */
  #head(text: string): string {
    const cap = this.#limit - Math.min(FENCE_ROOM, Math.floor(this.#limit / 4));
    if (text.length <= cap) return text;
    const floor = this.#o.mode === "append" ? this.#shown.length : 0;
    if (floor >= cap) return this.#shown;
    return text.slice(0, splitForRollover(text, cap, floor).cut);
  }

  async #run<T>(priority: SendPriority, send: () => Promise<T>): Promise<T> {
    const result = await this.#o.budget.run(this.#o.chatKey, priority, send, { signal: this.#o.signal, ...this.#replies(0) });
    if (result.status === "sent") return result.value;
    throw this.#o.signal.reason instanceof Error ? this.#o.signal.reason : new Error(`the native stream's final was ${result.reason}`);
  }

  /** Ends an open stream without a final; failures are ignored (nothing more can be done). */
  #endQuietly(reason: string, how: "abort" | "finish" = "abort"): void {
    const stream = this.#stream;
    if (stream === undefined) return;
    this.#stream = undefined;
    const end = how === "finish" ? stream.finish("") : stream.abort(reason);
    void Promise.resolve(end).catch(() => undefined);
  }

  /** The budget options that spend `replySlots` of the inbound message's reply quota. */
  #replies(replySlots: number): { inReplyTo?: string; replySlots: number } {
    return this.#o.inReplyTo !== undefined ? { inReplyTo: this.#o.inReplyTo, replySlots } : { replySlots };
  }

  #chunkOptions(): { maxChars: number; mode: ChunkMode } {
    return { maxChars: Math.max(1, Math.floor(this.#o.textLimit)), mode: this.#o.chunkMode ?? "length" };
  }

  #options(priority: SendPriority, suffix: string, signal: AbortSignal): SendOptions {
    const options: SendOptions = { signal, priority, format: this.#o.format, idempotencyKey: `${this.#o.idempotencyKey}#${suffix}` };
    if (this.#o.inReplyTo !== undefined) options.inReplyTo = this.#o.inReplyTo;
    return options;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
