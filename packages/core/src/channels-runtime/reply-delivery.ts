import { deliverFinal, PreviewController, ProgressDraft, type DeliveryLedger, type SendBudget } from "@openclaw/delivery";
import {
  BlockChunker,
  chunkText,
  type ChannelOutbound,
  type ChunkMode,
  type NativeStream,
  type OutboundTarget,
  type SendPriority,
} from "@openclaw/plugin-sdk";
import type { AgentEvent } from "../agent/index.js";
import { createBlockCoalescer, createSilentReplyGuard, type BlockStreamingSettings, type SilentReplyGuard } from "../streaming/index.js";
import { BlockStream, blockText } from "./block-stream.js";
import type { DeliveryPlan } from "./plan.js";

export interface ReplyDeliveryOptions {
  outbound: ChannelOutbound;
  budget: SendBudget;
  ledger: DeliveryLedger;
  plan: DeliveryPlan;
  target: OutboundTarget;
  /** Budget key of the chat. */
  chatKey: string;
  /** Stable per reply (idempotency, ledger). */
  replyKey: string;
  channel: string;
  accountId: string;
  textLimit: number;
  editLimit: number;
  minEditIntervalMs: number;
  chunkMode: ChunkMode;
  /** `streaming.preview.chunk.maxChars` for the rotating "block" preview (default 800). */
  previewChunkMax: number;
  /** `streaming.preview.chunk.minChars`: the first preview waits for this many characters. */
  previewMinChars?: number;
  /** `streaming.preview.toolProgress` (default true): show running tools under the preview. */
  previewToolProgress?: boolean;
  /** `streaming.progress` (mode "progress"). */
  progress?: { label?: string | false; labels?: string[]; maxLines?: number; maxLineChars?: number; toolProgress?: boolean };
  block: BlockStreamingSettings;
  /** `replyToMode`: which messages quote the user's message. */
  replyToMode: "off" | "first" | "all" | "batched";
  typing: boolean;
  /**
   * `agents.defaults.typingMode`: "instant" (typing from the start of the run; the default),
   * "thinking" (the same: until text streams), "message" (only while the reply is written),
   * "never".
   */
  typingMode?: "never" | "instant" | "thinking" | "message";
  /** `agents.defaults.humanDelay`: a pause before each block reply after the first, in ms. */
  humanDelay?: { minMs: number; maxMs: number };
  /**
   * This reply's signal (fires when the gateway gives up on deliveries). One per reply: the
   * delivery helpers put listeners on it that must go away with the reply.
   */
  signal: AbortSignal;
  log: { warn(message: string): void };
}

/** Rotates `streaming.progress.labels` from one reply to the next. */
let rotation = 0;

/**
 * Delivers one reply to one chat according to its plan, fed with the run's events in order:
 * block replies (chunker -> coalescer -> send), a live preview (edited in place, finalized in
 * place), a native stream, or the final only. The final is recorded in the delivery ledger, so it
 * is sent exactly once even across retries and restarts.
 */
export class ReplyDelivery {
  private chain: Promise<void> = Promise.resolve();
  private sentCount = 0;
  private streamedText = false;
  private readonly guard: SilentReplyGuard = createSilentReplyGuard();
  private typingTimer: NodeJS.Timeout | undefined;
  private settled = false;
  /** The run reported an error (its final text, if any, is the failure notice). */
  private failed = false;
  // preview state
  private preview: PreviewController | undefined;
  private previewText = "";
  private previewIndex = 0;
  /** Tools running while the preview shows them; the segment closes when the reply continues. */
  private readonly runningTools = new Map<string, string>();
  private closeOnNextText = false;
  private progress: ProgressDraft | undefined;
  private showToolLines = true;
  // blocks state
  private blocks: BlockStream | undefined;
  private blockIndex = 0;
  // native state
  private stream: NativeStream | null | undefined;
  private streamText = "";
  private streamPending: Promise<NativeStream | null> | undefined;
  private lastStreamUpdate = 0;

  private readonly signal: AbortSignal;

  constructor(private readonly o: ReplyDeliveryOptions) {
    this.signal = o.signal;
    if (o.plan.kind === "blocks") {
      const chunker = new BlockChunker({
        minChars: o.block.minChars,
        maxChars: o.block.maxChars,
        breakPreference: o.block.breakPreference,
        chunkMode: o.chunkMode,
        textChunkLimit: o.textLimit,
      });
      const coalescer = createBlockCoalescer({
        minChars: o.block.coalesce.minChars,
        maxChars: Math.min(o.block.coalesce.maxChars, o.textLimit),
        idleMs: o.block.coalesce.idleMs,
        // BlockStream prefixes each block with its own separator from the reply.
        joiner: "",
        onFlush: (text) => this.enqueue(() => this.sendBlock(blockText(text))),
      });
      this.blocks = new BlockStream(chunker, coalescer);
    }
    if (o.plan.kind === "preview" && o.plan.mode === "progress") {
      const p = o.progress ?? {};
      const label = p.labels && p.labels.length > 0 ? p.labels[rotation++ % p.labels.length] : p.label;
      this.showToolLines = p.toolProgress !== false;
      this.progress = new ProgressDraft({
        ...(label !== undefined ? { label } : {}),
        ...(p.maxLines !== undefined ? { maxLines: p.maxLines } : {}),
        ...(p.maxLineChars !== undefined ? { maxLineChars: p.maxLineChars } : {}),
        outbound: o.outbound,
        target: o.target,
        budget: o.budget,
        chatKey: o.chatKey,
        format: "markdown",
        idempotencyKey: `${o.replyKey}:progress`,
        signal: this.signal,
      });
    }
  }

  /** Feed every run event here, in order. */
  onEvent = (event: AgentEvent): void => {
    if (this.settled) return;
    switch (event.type) {
      case "run_start":
        // Typing starts with the run that answers this message (a message that was steered into
        // another run, merged or cancelled never gets one, and never shows typing).
        if (this.o.typingMode !== "message" && this.wantsTyping()) this.startTyping();
        return;
      case "text_delta":
        if (this.o.typingMode === "message" && this.wantsTyping()) this.startTyping();
        return this.onDelta(event.text);
      case "text_end":
        if (this.blocks && this.o.block.break === "text_end") this.blocks.endSegment();
        return;
      case "message_end":
        this.blocks?.endSegment();
        return;
      case "tool_start":
        if (this.preview && this.o.previewToolProgress !== false) {
          this.runningTools.set(event.callId, event.name);
          this.closeOnNextText = true;
          this.showTools();
        } else {
          this.closePreviewSegment();
        }
        if (this.showToolLines) this.progress?.toolStart(event.callId, `${event.name} ${summarize(event.args)}`);
        return;
      case "tool_end":
        if (this.runningTools.delete(event.callId) && this.preview) this.showTools();
        if (this.showToolLines) this.progress?.toolEnd(event.callId, !event.isError);
        return;
      case "error":
        this.failed = true;
        return;
      case "final":
        return this.onFinal(event.text, event.silent);
      case "run_end":
        if (event.status !== "ok" && !this.settled) this.onAbort();
        return;
      default:
        return;
    }
  };

  /** Resolves when everything this reply sends has been sent (or dropped). */
  done(): Promise<void> {
    return this.chain;
  }

  /**
   * Ends a reply that will get no more events: its message was answered by another run (steered
   * or merged), cancelled, or was a command. Stops typing and anything still pending; idempotent.
   */
  close(): void {
    if (this.settled) return;
    this.onAbort();
  }

  private enqueue(task: () => Promise<void>): void {
    this.chain = this.chain.then(task).catch((err: unknown) => this.o.log.warn(`delivery failed: ${(err as Error).message}`));
  }

  private targetFor(index: number): OutboundTarget {
    const quote =
      this.o.target.replyToMessageId !== undefined &&
      (this.o.replyToMode === "all" || ((this.o.replyToMode === "first" || this.o.replyToMode === "batched") && index === 0));
    return quote ? this.o.target : { chat: this.o.target.chat };
  }

  private options(priority: SendPriority, key: string) {
    return { signal: this.signal, priority, format: "markdown" as const, idempotencyKey: key };
  }

  private async send(text: string, priority: SendPriority, key: string): Promise<string> {
    const index = this.sentCount++;
    const target = this.targetFor(index);
    const result = await this.o.budget.run(
      this.o.chatKey,
      priority,
      () => this.o.outbound.sendText(target, text, this.options(priority, key)),
      {
        signal: this.signal,
      },
    );
    if (result.status !== "sent") throw new Error(`send dropped (${result.reason})`);
    return result.value.messageId;
  }

  /** The preview text with a line naming the tools that are running. */
  private showTools(): void {
    if (!this.preview) return;
    const names = [...new Set(this.runningTools.values())];
    this.preview.update(names.length ? `${this.previewText}\n\n⏳ ${names.join(", ")}…` : this.previewText);
  }

  private onDelta(delta: string): void {
    const released = this.guard.push(delta);
    if (!released) return;
    if (this.closeOnNextText) {
      this.closeOnNextText = false;
      this.runningTools.clear();
      this.closePreviewSegment();
    }
    this.streamedText = true;
    const plan = this.o.plan;
    if (plan.kind === "blocks") {
      this.blocks!.push(released);
    } else if (plan.kind === "preview" && plan.mode !== "progress") {
      if (!this.preview) this.openPreview();
      this.previewText += released;
      this.preview!.update(this.previewText);
    } else if (plan.kind === "native") {
      this.streamText += released;
      this.updateStream();
    }
  }

  private openPreview(): void {
    const plan = this.o.plan;
    const editLimit =
      plan.kind === "preview" && plan.mode === "block" ? Math.min(this.o.previewChunkMax, this.o.editLimit) : this.o.editLimit;
    this.preview = new PreviewController({
      outbound: this.o.outbound,
      target: this.targetFor(this.sentCount),
      budget: this.o.budget,
      chatKey: this.o.chatKey,
      textLimit: this.o.textLimit,
      editLimit,
      minInitialChars: this.o.previewMinChars ?? (plan.kind === "preview" && plan.mode === "block" ? 200 : 30),
      throttleMs: Math.max(this.o.minEditIntervalMs, 250),
      format: "markdown",
      idempotencyKey: `${this.o.replyKey}:preview:${this.previewIndex}`,
      signal: this.signal,
      chunkMode: this.o.chunkMode,
    });
    this.sentCount += 1;
  }

  /** A message that ended in tool calls is complete: finalize its preview in place. */
  private closePreviewSegment(): void {
    if (!this.preview) return;
    const preview = this.preview;
    const text = this.previewText;
    this.preview = undefined;
    this.previewText = "";
    this.previewIndex += 1;
    if (text.trim() === "") {
      preview.abort();
      return;
    }
    this.enqueue(async () => {
      await preview.finalize(text);
    });
  }

  private wantsTyping(): boolean {
    return (
      this.o.typing &&
      this.o.typingMode !== "never" &&
      this.o.outbound.typing !== undefined &&
      this.typingTimer === undefined &&
      !this.settled
    );
  }

  private async sendBlock(text: string): Promise<void> {
    const delay = this.o.humanDelay;
    if (delay && this.blockIndex > 0) {
      const ms = delay.minMs + Math.random() * Math.max(0, delay.maxMs - delay.minMs);
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
    const chunks = chunkText(text, { maxChars: this.o.textLimit, mode: this.o.chunkMode });
    const key = `${this.o.replyKey}:block:${this.blockIndex++}`;
    await deliverFinal({
      ledger: this.o.ledger,
      key,
      chunks,
      info: { channel: this.o.channel, accountId: this.o.accountId, target: this.o.target },
      send: async (chunk, i) => ({ messageId: await this.send(chunk, "block", `${key}:${i}`) }),
    });
  }

  private updateStream(): void {
    if (this.stream === null) return;
    if (!this.streamPending) {
      this.streamPending = this.o.outbound.openStream
        ? this.o.outbound.openStream(this.targetFor(0), this.options("preview", `${this.o.replyKey}:stream`)).catch(() => null)
        : Promise.resolve(null);
      this.streamPending.then((s) => (this.stream = s));
    }
    const now = Date.now();
    if (now - this.lastStreamUpdate < this.o.minEditIntervalMs) return;
    this.lastStreamUpdate = now;
    const text = this.streamText;
    this.enqueue(async () => {
      const stream = await this.streamPending!;
      if (stream) await stream.update(text);
    });
  }

  private onFinal(text: string, silent: boolean): void {
    this.settled = true;
    this.stopTyping();
    const plan = this.o.plan;
    if (silent) {
      this.preview?.abort();
      this.blocks?.stop();
      if (this.progress) this.enqueue(() => this.progress!.clear());
      return;
    }
    // Text held back by the silent-reply guard (a reply that started like NO_REPLY) goes out now.
    const held = this.guard.end();
    if (held.text && !held.silent) this.onDeltaReleased(held.text);

    if (plan.kind === "blocks" && this.streamedText) {
      this.blocks!.finish();
      // A run that failed after streaming some blocks ends with the failure notice as its final
      // text: the blocks sent are not it, so it goes out on its own.
      if (this.failed && text.trim() !== "") this.enqueue(() => this.sendFinal(text));
      return;
    }
    if (this.closeOnNextText) {
      // The run ended right after its tools: the open preview still shows the tool line.
      this.closeOnNextText = false;
      this.runningTools.clear();
      if (text.trim() === "" || text === this.previewText) {
        const preview = this.preview!;
        const shown = this.previewText;
        this.preview = undefined;
        this.enqueue(async () => {
          await preview.finalize(shown);
        });
        return;
      }
      this.closePreviewSegment();
    }
    if (plan.kind === "preview" && plan.mode !== "progress" && this.preview) {
      const preview = this.preview;
      this.enqueue(async () => {
        await preview.finalize(text);
      });
      return;
    }
    if (plan.kind === "native" && this.streamPending) {
      this.enqueue(async () => {
        const stream = await this.streamPending!;
        if (stream) {
          await stream.finish(text);
          return;
        }
        await this.sendFinal(text);
      });
      return;
    }
    if (plan.kind === "preview" && plan.mode !== "progress" && this.previewIndex > 0 && text.trim() === "") return;
    this.enqueue(() => this.sendFinal(text));
    if (this.progress) this.enqueue(() => this.progress!.clear());
  }

  private onDeltaReleased(text: string): void {
    this.streamedText = true;
    const plan = this.o.plan;
    if (plan.kind === "blocks") this.blocks!.push(text);
    else if (plan.kind === "preview" && plan.mode !== "progress") {
      if (!this.preview) this.openPreview();
      this.previewText += text;
    } else if (plan.kind === "native") this.streamText += text;
  }

  private async sendFinal(text: string): Promise<void> {
    if (text.trim() === "") return;
    const chunks = chunkText(text, { maxChars: this.o.textLimit, mode: this.o.chunkMode });
    const key = `${this.o.replyKey}:final`;
    await deliverFinal({
      ledger: this.o.ledger,
      key,
      chunks,
      info: { channel: this.o.channel, accountId: this.o.accountId, target: this.o.target },
      send: async (chunk, i) => ({ messageId: await this.send(chunk, "final", `${key}:${i}`) }),
    });
  }

  private onAbort(): void {
    this.settled = true;
    this.stopTyping();
    this.preview?.abort();
    // A progress draft would otherwise keep saying "Working…" forever.
    if (this.progress) this.enqueue(() => this.progress!.clear());
    this.blocks?.stop();
    if (this.streamPending) void this.streamPending.then((stream) => stream?.abort("the run ended without a reply")).catch(() => undefined);
  }

  private startTyping(): void {
    const tick = () => {
      void this.o.budget
        .run(this.o.chatKey, "typing", () => this.o.outbound.typing!(this.o.target, this.options("typing", `${this.o.replyKey}:typing`)), {
          supersedeKey: "typing",
          signal: this.signal,
        })
        .catch(() => undefined);
    };
    tick();
    this.typingTimer = setInterval(tick, 5000);
    this.typingTimer.unref?.();
  }

  private stopTyping(): void {
    if (this.typingTimer) clearInterval(this.typingTimer);
    this.typingTimer = undefined;
  }
}

function summarize(args: unknown): string {
  const text = typeof args === "string" ? args : JSON.stringify(args ?? {});
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
