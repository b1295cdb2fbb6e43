// The live preview of one reply: sent once, edited in place (paced), continued in a new message
// when it outgrows the edit limit, and finalized in place.
import {
  chunkText,
  isBlank,
  type ChannelOutbound,
  type ChunkMode,
  type OutboundTarget,
  type SendOptions,
  type SendPriority,
} from "@openclaw/plugin-sdk";
import { systemClock, type DeliveryClock } from "./clock.js";
import { Pacer } from "./pacer.js";
import { planFinal, type FinalPlan } from "./final-plan.js";
import type { SendBudget } from "./send-budget.js";
import { rollOver, segmentText, type Segment } from "./segments.js";

/** Characters the open preview message keeps free for a fence close ("\n```" and longer fences). */
const FENCE_ROOM = 8;

/** Everything a `PreviewController` needs; one controller per reply. */
export interface PreviewControllerOptions {
  /** The account's sending side. */
  outbound: ChannelOutbound;
  /** Where the reply goes. */
  target: OutboundTarget;
  /** The account's shared send budget; previews go through it as `"preview"`, the final as `"final"`. */
  budget: SendBudget;
  /** The budget key of the chat (e.g. `"<chat id>"` or `"<chat id>:<thread id>"`). */
  chatKey: string;
  /** Longest message `sendText` accepts (the channel's `textChunkLimit`). */
  textLimit: number;
  /** Longest text an edited message may hold (default `textLimit`; the smaller of both is used). */
  editLimit?: number;
  /** The first preview waits until the reply has this many non-blank characters (default 30). */
  minInitialChars?: number;
  /** At most one preview edit per this many ms (default 1000, at least 250). */
  throttleMs?: number;
  /** How the text is rendered by the plugin. */
  format: "markdown" | "plain";
  /** The reply's stable key; each message derives its own from it. */
  idempotencyKey: string;
  /** The run's signal: when it fires, pending edits stop and `finalize` rejects. */
  signal: AbortSignal;
  /** How `finalize` splits text it sends as new messages (default `"length"`). */
  chunkMode?: ChunkMode;
  /**
   * `capabilities.finalEditAfterPreview`: `finalize` edits every preview message it keeps with
   * priority "final", also one whose text is already final (best effort: a failure of such an
   * edit leaves the message as it is). Default false.
   */
  finalEditAfterPreview?: boolean;
  /** The inbound message the reply answers, passed on every call as `SendOptions.inReplyTo`. */
  inReplyTo?: string;
  /** Time source (tests). */
  clock?: DeliveryClock;
}

/** What `PreviewController.finalize` delivered: the ids of the messages that hold the reply, in order. */
export interface FinalizeResult {
  /** The messages holding the final reply, in reading order (deleted previews excluded). */
  messageIds: string[];
}

/** The reason pending preview sends are cancelled with when the preview ends (made once: an AbortError each time costs a stack). */
const PREVIEW_ENDED = new DOMException("the preview ended", "AbortError");

/**
 * Live preview of one reply. Feed the whole reply so far to `update`; call `finalize` once with
 * the final text. Text a user has seen is never shown twice: when the preview outgrows the edit
 * limit the message is frozen at a good break and a new message continues from exactly there.
 * The final is delivered exactly once and complete: the open preview message is edited in place,
 * the rest follows as new messages; if the platform refuses the edit, the rest of the reply is sent
 * normally and the stale preview is deleted (when the channel can delete).
 *
 * On a channel without `editText` nothing is shown before `finalize`, which then sends normally.
 */
export class PreviewController {
  readonly #o: PreviewControllerOptions;
  readonly #clock: DeliveryClock;
  readonly #limit: number;
  readonly #minInitial: number;
  readonly #segments: Segment[] = [];
  readonly #pacer: Pacer;
  readonly #previewAbort = new AbortController();
  readonly #previewSignal: AbortSignal;
  #text = "";
  /** The reply text up to the open segment, as it was when the segments before it froze. */
  #frozenText = "";
  #state: "streaming" | "finalizing" | "done" | "aborted" = "streaming";
  #previewOff: boolean;
  #sendFailures = 0;
  #newMessages = 0;
  #final: Promise<FinalizeResult> | undefined;

  constructor(options: PreviewControllerOptions) {
    this.#o = options;
    this.#clock = options.clock ?? systemClock;
    const textLimit = Math.max(1, Math.floor(options.textLimit));
    this.#limit = Math.max(1, Math.min(textLimit, Math.floor(options.editLimit ?? textLimit)));
    this.#minInitial = Math.max(1, options.minInitialChars ?? 30);
    this.#previewOff = typeof options.outbound.editText !== "function";
    // Aborted when the run's signal fires (with its reason) or the preview ends: cheaper per
    // reply than AbortSignal.any.
    this.#previewSignal = this.#previewAbort.signal;
    this.#pacer = new Pacer(() => this.#flush(), Math.max(250, options.throttleMs ?? 1000), this.#clock);
    const runAborted = () => {
      this.#previewAbort.abort(options.signal.reason);
      this.abort();
    };
    if (options.signal.aborted) runAborted();
    else options.signal.addEventListener("abort", runAborted, { once: true });
  }

  /** Ids of the preview messages sent so far, in order. */
  get messageIds(): string[] {
    return this.#segments.flatMap((s) => (s.messageId === undefined ? [] : [s.messageId]));
  }

  /**
   * The reply so far (always the whole text, not a delta). Schedules a paced preview send or edit;
   * ignored after `finalize` or `abort`, and before the text has `minInitialChars` characters.
   */
  update(fullText: string): void {
    if (this.#state !== "streaming" || this.#previewOff) return;
    this.#text = fullText;
    if (this.#segments.length === 0 && fullText.trim().length < this.#minInitial) return;
    this.#pacer.request();
  }

  /** Stops pending edits; what the user has seen stays. `finalize` still works afterwards. */
  abort(): void {
    if (this.#state === "streaming") this.#state = "aborted";
    this.#previewAbort.abort(PREVIEW_ENDED);
    void this.#pacer.stop();
  }

  /**
   * Delivers `finalText` exactly once (repeated calls return the first call's promise). Rejects
   * when the run's signal fires or a send fails for good (the budget already retried it).
   */
  finalize(finalText: string): Promise<FinalizeResult> {
    this.#final ??= this.#finish(finalText);
    return this.#final;
  }

  async #finish(finalText: string): Promise<FinalizeResult> {
    this.#state = "finalizing";
    this.#previewAbort.abort(PREVIEW_ENDED);
    await this.#pacer.stop();
    try {
      const shown = this.#segments.filter((s) => s.messageId !== undefined);
      if (shown.length === 0) return { messageIds: await this.#sendNew(finalText) };
      const next = this.#segments[shown.length];
      return await this.#deliver(planFinal(this.#segments.slice(0, shown.length), this.#frozenText, finalText, this.#limit, next));
    } finally {
      this.#state = "done";
    }
  }

  async #deliver(plan: FinalPlan): Promise<FinalizeResult> {
    const ids: string[] = [];
    const { messages } = plan;
    for (let i = 0; i < messages.length; i++) {
      const { segment, text } = messages[i]!;
      const messageId = segment.messageId!;
      if (text === null || segment.shown === text) {
        await this.#finishUnchanged(segment);
        ids.push(messageId);
      } else if (text === "") {
        if (!(await this.#deleteQuietly(messageId))) ids.push(messageId);
      } else {
        try {
          await this.#finalEdit(segment, text);
          ids.push(messageId);
        } catch (error) {
          if (this.#o.signal.aborted) throw error;
          // The platform refuses the edit: send the rest normally, then remove the stale previews.
          const rest = messages.slice(i).filter((m) => m.text !== null);
          for (const m of rest) ids.push(...(await this.#sendNew(m.text!)));
          ids.push(...(await this.#sendNew(plan.tail)));
          for (const m of rest) {
            const id = m.segment.messageId!;
            if (!(await this.#deleteQuietly(id))) ids.push(id);
          }
          return { messageIds: ids };
        }
      }
    }
    ids.push(...(await this.#sendNew(plan.tail)));
    return { messageIds: ids };
  }

  /** The paced preview pass: catches every segment up with the text, in order. */
  async #flush(): Promise<void> {
    if (this.#state !== "streaming" || this.#previewOff) return;
    if (!this.#layout()) return;
    for (let i = 0; i < this.#segments.length; i++) {
      if (this.#state !== "streaming" || this.#previewOff) return;
      const segment = this.#segments[i]!;
      const wanted = this.#previewText(segment);
      if (segment.shown === wanted) continue;
      if (segment.messageId === undefined && isBlank(wanted)) return;
      if (!(await this.#previewOp(i, segment, wanted))) return;
    }
  }

  /**
   * What a segment shows during the preview. The open segment stops a few characters short of the
   * limit, so that when it freezes there is room to close a code fence after what was seen.
   */
  #previewText(segment: Segment): string {
    const text = segmentText(segment, this.#text, this.#frozenText);
    if (segment.end !== undefined) return text;
    const cap = this.#limit - Math.min(FENCE_ROOM, Math.floor(this.#limit / 4));
    if (text.length <= cap) return text;
    const code = text.charCodeAt(cap - 1);
    return text.slice(0, code >= 0xd800 && code <= 0xdbff ? cap - 1 : cap);
  }

  /** Freezes and rolls over as the text demands; false when the text no longer extends frozen messages. */
  #layout(): boolean {
    if (!this.#text.startsWith(this.#frozenText)) return false;
    this.#frozenText = rollOver(this.#segments, this.#text, this.#limit, this.#frozenText);
    return true;
  }

  async #previewOp(index: number, segment: Segment, wanted: string): Promise<boolean> {
    const { outbound, target } = this.#o;
    let text = "";
    const send = async (): Promise<string> => {
      this.#pacer.markAttempt();
      // Render the newest text at the moment the send leaves (it may have grown while waiting).
      const fresh = segment.end !== undefined || this.#layout();
      text = fresh ? this.#previewText(segment) : wanted;
      // Once a preview call has left it must be allowed to finish: aborting a send half-way can
      // leave a message on the platform that we never learned the id of (an orphan the user
      // sees twice). `finalize` only stops previews that are still waiting for the budget.
      const options = this.#sendOptions("preview", `${this.#o.idempotencyKey}#${index}`, this.#o.signal);
      if (segment.messageId === undefined) return (await outbound.sendText(target, text, options)).messageId;
      await outbound.editText!(target, segment.messageId, text, options);
      return segment.messageId;
    };
    try {
      const result = await this.#o.budget.run(this.#o.chatKey, "preview", send, {
        supersedeKey: `${this.#o.idempotencyKey}#${index}`,
        signal: this.#previewSignal,
        ...this.#replies(segment.messageId === undefined ? 1 : 0),
      });
      if (result.status === "dropped") {
        this.#pacer.markAttempt();
        // No reply left for another preview message: the final carries the rest.
        if (result.reason === "quota") this.#previewOff = true;
        else if (result.reason !== "aborted") this.#pacer.request();
        return false;
      }
      segment.messageId = result.value;
      segment.shown = text;
      segment.finalized = false;
      this.#sendFailures = 0;
      return true;
    } catch {
      if (segment.messageId !== undefined) {
        this.#previewOff = true; // the platform refuses edits of this message; finalize recovers
      } else if (++this.#sendFailures >= 3) {
        this.#previewOff = true;
      } else {
        this.#pacer.request();
      }
      return false;
    }
  }

  /** With `finalEditAfterPreview`, a message the final leaves as the preview showed it still gets its final edit. */
  async #finishUnchanged(segment: Segment): Promise<void> {
    if (!this.#o.finalEditAfterPreview || segment.finalized || segment.shown === undefined) return;
    try {
      await this.#finalEdit(segment, segment.shown);
    } catch (error) {
      if (this.#o.signal.aborted) throw error;
      // Its text is already right; only its preview look stays.
    }
  }

  async #finalEdit(segment: Segment, text: string): Promise<void> {
    const { outbound, target } = this.#o;
    if (typeof outbound.editText !== "function") throw new Error("the channel cannot edit messages");
    const index = this.#segments.indexOf(segment);
    const options = this.#sendOptions("final", `${this.#o.idempotencyKey}#${index}`, this.#o.signal);
    await this.#runFinal(() => outbound.editText!(target, segment.messageId!, text, options), 0);
    segment.shown = text;
    segment.finalized = true;
  }

  /** Sends `text` as new messages (chunked by the text limit) and returns their ids. */
  async #sendNew(text: string): Promise<string[]> {
    const ids: string[] = [];
    for (const chunk of chunkText(text, { maxChars: this.#o.textLimit, mode: this.#o.chunkMode ?? "length" })) {
      const key = `${this.#o.idempotencyKey}#f${this.#newMessages++}`;
      const options = this.#sendOptions("final", key, this.#o.signal);
      const sent = await this.#runFinal(() => this.#o.outbound.sendText(this.#o.target, chunk, options), 1);
      ids.push(sent.messageId);
    }
    return ids;
  }

  /** Deletes a stale preview message; true when it is gone. Failures are ignored (it stays visible). */
  async #deleteQuietly(messageId: string): Promise<boolean> {
    const { outbound, target } = this.#o;
    if (typeof outbound.deleteMessage !== "function") return false;
    const options = this.#sendOptions("final", `${this.#o.idempotencyKey}#delete:${messageId}`, this.#o.signal);
    try {
      await this.#runFinal(() => outbound.deleteMessage!(target, messageId, options), 0);
      return true;
    } catch {
      return false;
    }
  }

  async #runFinal<T>(send: () => Promise<T>, replySlots: number): Promise<T> {
    const result = await this.#o.budget.run(this.#o.chatKey, "final", send, { signal: this.#o.signal, ...this.#replies(replySlots) });
    if (result.status === "sent") return result.value;
    throw this.#o.signal.reason instanceof Error ? this.#o.signal.reason : new Error(`final delivery ${result.reason}`);
  }

  /** The budget options that spend `replySlots` of the inbound message's reply quota. */
  #replies(replySlots: number): { inReplyTo?: string; replySlots: number } {
    return this.#o.inReplyTo !== undefined ? { inReplyTo: this.#o.inReplyTo, replySlots } : { replySlots };
  }

  #sendOptions(priority: SendPriority, idempotencyKey: string, signal: AbortSignal): SendOptions {
    const options: SendOptions = { signal, priority, format: this.#o.format, idempotencyKey };
    if (this.#o.inReplyTo !== undefined) options.inReplyTo = this.#o.inReplyTo;
    return options;
  }
}
