// Preview mode "progress": one status message listing tool activity, edited as tools start and
// finish, deleted once the final reply has been sent normally.
import type { ChannelOutbound, OutboundTarget, SendOptions, SendPriority } from "@openclaw/plugin-sdk";
import { systemClock, type DeliveryClock } from "./clock.js";
import { Pacer } from "./pacer.js";
import type { SendBudget } from "./send-budget.js";

/** Options of a `ProgressDraft`. */
export interface ProgressDraftOptions {
  /** The account's sending side. */
  outbound: ChannelOutbound;
  /** Where the draft is shown. */
  target: OutboundTarget;
  /** The account's shared send budget (draft edits are droppable previews). */
  budget: SendBudget;
  /** The budget key of the chat. */
  chatKey: string;
  /** Heading line (default "Working…"; `false` for none). */
  label?: string | false;
  /** Most recent activity lines shown (default 8). */
  maxLines?: number;
  /** Longer lines are cut with "…" (default 120). */
  maxLineChars?: number;
  /** At most one edit per this many ms (default 1000, at least 250). */
  throttleMs?: number;
  /** How the plugin renders the text. */
  format: "markdown" | "plain";
  /** The reply's stable key; the draft derives its own from it. */
  idempotencyKey: string;
  /** The run's signal: when it fires, pending edits stop. */
  signal: AbortSignal;
  /** The inbound message the reply answers, passed on every call as `SendOptions.inReplyTo`. */
  inReplyTo?: string;
  /** Time source (tests). */
  clock?: DeliveryClock;
}

interface ActivityLine {
  id: string;
  text: string;
  state: "running" | "done" | "failed";
}

const MARK = { running: "•", done: "✓", failed: "✗" } as const;

/**
 * A status draft for `streaming.mode: "progress"`: `toolStart`/`toolEnd` add and tick activity
 * lines, paced through the budget as droppable previews; `clear()` deletes the draft after the
 * final went out, `stop()` keeps it when the final could not be sent. Does nothing on a channel without `editText`.
 */
export class ProgressDraft {
  readonly #o: ProgressDraftOptions;
  readonly #lines: ActivityLine[] = [];
  readonly #maxLines: number;
  readonly #maxLineChars: number;
  readonly #pacer: Pacer;
  readonly #previewAbort = new AbortController();
  readonly #signal: AbortSignal;
  #messageId: string | undefined;
  #shown: string | undefined;
  #closed = false;
  #noRoom = false;

  constructor(options: ProgressDraftOptions) {
    this.#o = options;
    this.#maxLines = Math.max(1, Math.floor(options.maxLines ?? 8));
    this.#maxLineChars = Math.max(2, Math.floor(options.maxLineChars ?? 120));
    this.#signal = AbortSignal.any([options.signal, this.#previewAbort.signal]);
    this.#pacer = new Pacer(() => this.#flush(), Math.max(250, options.throttleMs ?? 1000), options.clock ?? systemClock);
  }

  /** The draft's message id once it was sent. */
  get messageId(): string | undefined {
    return this.#messageId;
  }

  /** Adds a running activity line (e.g. "exec: ls -la"); `id` pairs it with `toolEnd`. */
  toolStart(id: string, text: string): void {
    if (this.#closed) return;
    this.#lines.push({ id, text: this.#cut(text), state: "running" });
    this.#request();
  }

  /** Marks the line of `id` done (or failed); unknown ids are ignored. */
  toolEnd(id: string, ok = true): void {
    const line = this.#lines.findLast((l) => l.id === id && l.state === "running");
    if (this.#closed || line === undefined) return;
    line.state = ok ? "done" : "failed";
    this.#request();
  }

  /** The draft's text as it would be shown now. */
  render(): string {
    const label = this.#o.label === undefined ? "Working…" : this.#o.label;
    const lines = this.#lines.slice(-this.#maxLines).map((l) => `${MARK[l.state]} ${l.text}`);
    return (label === false ? lines : [label, ...lines]).join("\n");
  }

  /** Stops edits and keeps the draft as it is (its reply could not be sent); never throws. */
  async stop(): Promise<void> {
    this.#closed = true;
    this.#previewAbort.abort();
    await this.#pacer.stop();
  }

  /** Stops edits and deletes the draft (when the channel can delete); never throws. */
  async clear(): Promise<void> {
    await this.stop();
    const { outbound, target } = this.#o;
    if (this.#messageId === undefined || typeof outbound.deleteMessage !== "function") return;
    const messageId = this.#messageId;
    const options = this.#options("final", this.#o.signal);
    try {
      await this.#o.budget.run(this.#o.chatKey, "final", () => outbound.deleteMessage!(target, messageId, options), {
        signal: this.#o.signal,
        replySlots: 0,
      });
    } catch {
      // A draft that cannot be deleted stays; the final reply is already out.
    }
  }

  #request(): void {
    if (typeof this.#o.outbound.editText === "function" && !this.#noRoom) this.#pacer.request();
  }

  #cut(text: string): string {
    const oneLine = text.replace(/\s+/g, " ").trim();
    return oneLine.length <= this.#maxLineChars ? oneLine : `${oneLine.slice(0, this.#maxLineChars - 1)}…`;
  }

  async #flush(): Promise<void> {
    if (this.#closed) return;
    const { outbound, target } = this.#o;
    let text = "";
    const send = async (): Promise<string> => {
      this.#pacer.markAttempt();
      text = this.render();
      const options = this.#options("preview", this.#signal);
      if (this.#messageId === undefined) return (await outbound.sendText(target, text, options)).messageId;
      if (text !== this.#shown) await outbound.editText!(target, this.#messageId, text, options);
      return this.#messageId;
    };
    if (this.render() === this.#shown) return;
    const result = await this.#o.budget.run(this.#o.chatKey, "preview", send, {
      supersedeKey: `${this.#o.idempotencyKey}#progress`,
      signal: this.#signal,
      replySlots: this.#messageId === undefined ? 1 : 0,
      ...(this.#o.inReplyTo !== undefined ? { inReplyTo: this.#o.inReplyTo } : {}),
    });
    if (result.status === "sent") {
      this.#messageId = result.value;
      this.#shown = text;
    } else if (result.reason === "quota") {
      this.#noRoom = true; // no reply left for a status message: the final matters more
    } else if (result.reason !== "aborted") {
      this.#pacer.markAttempt();
      this.#pacer.request();
    }
  }

  #options(priority: SendPriority, signal: AbortSignal): SendOptions {
    const options: SendOptions = {
      signal,
      priority,
      format: this.#o.format,
      idempotencyKey: `${this.#o.idempotencyKey}#progress`,
      silent: true,
    };
    if (this.#o.inReplyTo !== undefined) options.inReplyTo = this.#o.inReplyTo;
    return options;
  }
}
