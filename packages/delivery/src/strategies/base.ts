// What every delivery strategy shares: the order of events, the silent-reply guard, typing,
// quoting per replyToMode, one queue of sends per reply, exactly-once finals and the outcome.
import { chunkText, type ChannelOutbound, type OutboundTarget, type SendOptions, type SendPriority } from "@openclaw/plugin-sdk";
import { systemClock, type DeliveryClock } from "../clock.js";
import { sendParts } from "../final-send.js";
import type { DeliverFinalResult } from "../ledger.js";
import { createSilentReplyGuard } from "../silent-reply.js";
import { OutcomeRecorder } from "./outcome.js";
import { TypingLoop } from "./typing.js";
import type { DeliveryKind, DeliveryOutcome, DeliveryStrategy, DeliveryStrategyOptions, ReplyEvent } from "./types.js";

type ToolStart = Extract<ReplyEvent, { type: "tool_start" }>;
type ToolEnd = Extract<ReplyEvent, { type: "tool_end" }>;

/**
 * Internal: the base of the strategies. It turns events into a few hooks (`onText`, `onFinal`, …)
 * that each kind implements, and offers the sends they share.
 */
export abstract class StrategyBase implements DeliveryStrategy {
  abstract readonly kind: DeliveryKind;
  protected readonly o: DeliveryStrategyOptions;
  protected readonly clock: DeliveryClock;
  protected readonly random: () => number;
  protected readonly recorder = new OutcomeRecorder();
  /** The account's outbound behind the recording seam; every call of the reply goes through it. */
  protected readonly outbound: ChannelOutbound;
  /** True once the reply is over (final, silent or aborted): later events are ignored. */
  protected settled = false;
  /** The run reported an error (its final text, if any, is the failure notice). */
  protected failed = false;
  /** Some reply text was released (streamed, or held back until the final). */
  protected streamed = false;
  #chain: Promise<void> = Promise.resolve();
  readonly #guard = createSilentReplyGuard();
  readonly #typing: TypingLoop;
  /** A lasting indicator (`typingPersists`): whether it was shown, once it was asked for. */
  #lastingTyping: Promise<boolean> | undefined;
  #sentCount = 0;

  constructor(options: DeliveryStrategyOptions) {
    this.o = options;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.outbound = this.recorder.wrap(options.outbound);
    this.#typing = new TypingLoop(() => this.#typingTick(), this.clock);
  }

  onEvent(event: ReplyEvent): void {
    if (this.settled) return;
    switch (event.type) {
      case "run_start":
        // Typing starts with the run that answers this message (a message that was steered into
        // another run, merged or cancelled never gets one, and never shows typing).
        if (this.o.typingMode !== "message") this.#startTyping();
        return;
      case "text_delta": {
        if (this.o.typingMode === "message") this.#startTyping();
        const released = this.#guard.push(event.text);
        if (released === "") return;
        this.streamed = true;
        return this.onText(released);
      }
      case "text_end":
        return this.onTextEnd();
      case "message_end":
        return this.onMessageEnd();
      case "tool_start":
        return this.onToolStart(event);
      case "tool_end":
        return this.onToolEnd(event);
      case "error":
        this.failed = true;
        return;
      case "final":
        return this.#final(event.text, event.silent);
      case "run_end":
        if (event.status !== "ok") this.#abort();
        return;
      default:
        return;
    }
  }

  async finish(): Promise<DeliveryOutcome> {
    if (!this.settled) this.#abort();
    await this.#chain;
    return this.recorder.outcome(this.kind);
  }

  /** Reply text the guard released, in order (never blank-only deltas are withheld: see the guard). */
  protected abstract onText(text: string): void;
  /** Text the guard held back until the final; shown by the final itself, so no preview update. */
  protected onHeldText(text: string): void {
    this.onText(text);
  }
  protected onTextEnd(): void {}
  protected onMessageEnd(): void {}
  protected onToolStart(_event: ToolStart): void {}
  protected onToolEnd(_event: ToolEnd): void {}
  /** The final reply (not silent); `text` may be blank. Queue what it sends with `enqueue`. */
  protected abstract onFinal(text: string): void;
  /** The agent answered NO_REPLY, or the reply ended without a final: stop what is pending. */
  protected onStop(): void {}

  /** Runs `task` after everything queued before it; a failure is logged and recorded, never thrown. */
  protected enqueue(task: () => Promise<unknown>): void {
    this.#chain = this.#chain.then(task).then(
      () => undefined,
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.recorder.errors.push(message);
        this.o.log.warn(`delivery failed: ${message}`);
      },
    );
  }

  /** The target of the next message sent: quoting the user's message as `replyToMode` says. */
  protected nextTarget(): OutboundTarget {
    const index = this.#sentCount++;
    const { target, replyToMode = "off" } = this.o;
    const quote =
      target.replyToMessageId !== undefined &&
      (replyToMode === "all" || ((replyToMode === "first" || replyToMode === "batched") && index === 0));
    return quote ? target : { chat: target.chat };
  }

  protected sendOptions(priority: SendPriority, idempotencyKey: string): SendOptions {
    const options: SendOptions = { signal: this.o.signal, priority, format: "markdown", idempotencyKey };
    if (this.o.inReplyTo !== undefined) options.inReplyTo = this.o.inReplyTo;
    return options;
  }

  /** Sends `text` (split at the text limit) exactly once under `<replyKey>:<suffix>`. */
  protected sendText(text: string, suffix: string, priority: "final" | "block" = "final"): Promise<DeliverFinalResult> {
    return sendParts({
      outbound: this.outbound,
      budget: this.o.budget,
      chatKey: this.o.chatKey,
      target: () => this.nextTarget(),
      chunks: chunkText(text, { maxChars: this.o.textLimit, mode: this.o.chunkMode }),
      key: `${this.o.replyKey}:${suffix}`,
      ledger: this.o.ledger,
      priority,
      signal: this.o.signal,
      ...(this.o.inReplyTo !== undefined ? { inReplyTo: this.o.inReplyTo } : {}),
      info: { channel: this.o.channel, accountId: this.o.accountId, target: this.o.target },
    });
  }

  /** The final reply sent as ordinary messages (nothing for blank text). */
  protected async sendFinal(text: string): Promise<void> {
    if (text.trim() === "") return;
    await this.sendText(text, "final");
  }

  #final(text: string, silent: boolean): void {
    this.settled = true;
    this.#typing.stop();
    if (silent) {
      this.recorder.status = "silent";
      this.onStop();
      return this.#clearLastingTyping();
    }
    this.recorder.status = "delivered";
    // Text held back by the silent-reply guard (a reply that started like NO_REPLY) goes out now.
    const held = this.#guard.end();
    if (held.text !== "" && !held.silent) {
      this.streamed = true;
      this.onHeldText(held.text);
    }
    this.onFinal(text);
    this.#clearLastingTyping();
  }

  #abort(): void {
    this.settled = true;
    this.#typing.stop();
    this.onStop();
    this.#clearLastingTyping();
  }

  /** Removes a lasting typing indicator once everything queued before (the final) was sent. */
  #clearLastingTyping(): void {
    const shown = this.#lastingTyping;
    const clear = this.outbound.clearTyping;
    if (shown === undefined || clear === undefined) return;
    // Not under the reply's signal: an indicator left on the user's message would stay there for good.
    const options = { ...this.sendOptions("typing", `${this.o.replyKey}:typing-clear`), signal: new AbortController().signal };
    this.enqueue(async () => {
      if (await shown) await clear(this.o.target, options);
    });
  }

  #startTyping(): void {
    const { typing, typingMode } = this.o;
    if (!typing || typingMode === "never" || this.outbound.typing === undefined || this.settled) return;
    if (this.o.typingPersists) {
      // Shown once and never renewed: each show may notify the user.
      this.#lastingTyping ??= this.#showTyping();
      return;
    }
    this.#typing.start();
  }

  async #showTyping(): Promise<boolean> {
    const options = this.sendOptions("typing", `${this.o.replyKey}:typing`);
    try {
      const result = await this.o.budget.run(this.o.chatKey, "typing", () => this.outbound.typing!(this.o.target, options), {
        signal: this.o.signal,
        ...(this.o.inReplyTo !== undefined ? { inReplyTo: this.o.inReplyTo } : {}),
      });
      return result.status === "sent";
    } catch {
      return false;
    }
  }

  #typingTick(): void {
    const options = this.sendOptions("typing", `${this.o.replyKey}:typing`);
    void this.o.budget
      .run(this.o.chatKey, "typing", () => this.outbound.typing!(this.o.target, options), {
        supersedeKey: "typing",
        signal: this.o.signal,
        ...(this.o.inReplyTo !== undefined ? { inReplyTo: this.o.inReplyTo } : {}),
      })
      .catch(() => undefined);
  }
}

/** A tool call's arguments as one short line. */
export function summarizeArgs(args: unknown): string {
  const text = typeof args === "string" ? args : JSON.stringify(args ?? {});
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
