// Block replies: the streamed text is cut into blocks (chunker), small blocks are merged
// (coalescer), and each block leaves as its own message as soon as it is complete. Under a
// per-inbound reply quota, blocks merge more as the replies run out, and what no block may carry
// goes out with the final.
import { BlockChunker, chunkText } from "@openclaw/plugin-sdk";
import { BlockStream, blockText } from "../blocks/block-stream.js";
import { createBlockCoalescer } from "../blocks/coalescer.js";
import { SendDroppedError } from "../final-send.js";
import { splitForRollover } from "../rollover.js";
import { StrategyBase } from "./base.js";
import type { DeliveryStrategyOptions } from "./types.js";

/** Internal: the strategy of a "blocks" plan. */
export class BlocksStrategy extends StrategyBase {
  readonly kind = "blocks" as const;
  readonly #blocks: BlockStream;
  #index = 0;
  /** Text held back for lack of replies in the quota (sent full messages at a time, the rest with the final). */
  #held = "";

  constructor(options: DeliveryStrategyOptions) {
    super(options);
    const { block, textLimit } = options;
    const chunker = new BlockChunker({
      minChars: block.minChars,
      maxChars: block.maxChars,
      breakPreference: block.breakPreference,
      chunkMode: options.chunkMode,
      textChunkLimit: textLimit,
    });
    const coalescer = createBlockCoalescer({
      minChars: block.coalesce.minChars,
      maxChars: Math.min(block.coalesce.maxChars, textLimit),
      idleMs: block.coalesce.idleMs,
      // BlockStream prefixes each block with its own separator from the reply.
      joiner: "",
      onFlush: (text) => this.enqueue(() => this.#deliver(text)),
      timers: this.clock,
    });
    this.#blocks = new BlockStream(chunker, coalescer);
  }

  protected onText(text: string): void {
    this.#blocks.push(text);
  }

  protected override onTextEnd(): void {
    if (this.o.block.break === "text_end") this.#blocks.endSegment();
  }

  protected override onMessageEnd(): void {
    this.#blocks.endSegment();
  }

  protected onFinal(text: string): void {
    if (!this.streamed) {
      this.enqueue(() => this.sendFinal(text));
      return;
    }
    this.#blocks.finish();
    // What the quota left no block for is the final's: it may carry the whole rest of the answer,
    // split only at the text limit.
    this.enqueue(async () => {
      const held = this.#held;
      this.#held = "";
      if (held.trim() !== "") await this.sendText(held, "rest", "final");
    });
    // A run that failed after streaming some blocks ends with the failure notice as its final
    // text: the blocks sent are not it, so it goes out on its own.
    if (this.failed && text.trim() !== "") this.enqueue(() => this.sendFinal(text));
  }

  protected override onStop(): void {
    this.#blocks.stop();
  }

  /**
   * A merged block (`raw` starts with its separator from the reply). It leaves at once while the
   * reply quota has room for it and one more; the last spare reply is only spent on a full message;
   * without room it is held for the final.
   */
  async #deliver(raw: string): Promise<void> {
    const text = blockText(raw);
    const needed = chunkText(text, { maxChars: this.o.textLimit, mode: this.o.chunkMode }).length;
    if (this.#held === "" && this.#spare() - needed >= 1 && (await this.#sendBlock(text))) return;
    this.#held = this.#held === "" ? text : this.#held + raw;
    while (this.#held.length > this.o.textLimit && this.#spare() >= 1) {
      const split = splitForRollover(this.#held, this.o.textLimit);
      const head = this.#held.slice(0, split.cut) + split.closeFence;
      const rest = split.reopenFence + this.#held.slice(split.resume);
      if (!(await this.#sendBlock(head))) return;
      this.#held = rest;
    }
  }

  /** Replies of the inbound message blocks may still spend (the final's reserve kept); Infinity without a quota. */
  #spare(): number {
    return this.o.budget.repliesLeft(this.o.chatKey, this.o.inReplyTo) - this.o.budget.finalReserve;
  }

  /** Sends one block (after the human delay); false when the quota refused it (the caller holds it). */
  async #sendBlock(text: string): Promise<boolean> {
    const delay = this.o.humanDelay;
    if (delay !== undefined && this.#index > 0) {
      const ms = delay.minMs + this.random() * Math.max(0, delay.maxMs - delay.minMs);
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, ms));
    }
    try {
      await this.sendText(text, `block:${this.#index++}`, "block");
      return true;
    } catch (error) {
      if (error instanceof SendDroppedError && error.reason === "quota") return false;
      throw error;
    }
  }
}
