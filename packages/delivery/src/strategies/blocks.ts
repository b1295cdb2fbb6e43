// Block replies: the streamed text is cut into blocks (chunker), small blocks are merged
// (coalescer), and each block leaves as its own message as soon as it is complete.
import { BlockChunker } from "@openclaw/plugin-sdk";
import { BlockStream, blockText } from "../blocks/block-stream.js";
import { createBlockCoalescer } from "../blocks/coalescer.js";
import { StrategyBase } from "./base.js";
import type { DeliveryStrategyOptions } from "./types.js";

/** Internal: the strategy of a "blocks" plan. */
export class BlocksStrategy extends StrategyBase {
  readonly kind = "blocks" as const;
  readonly #blocks: BlockStream;
  #index = 0;

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
      onFlush: (text) => this.enqueue(() => this.#sendBlock(blockText(text))),
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
    // A run that failed after streaming some blocks ends with the failure notice as its final
    // text: the blocks sent are not it, so it goes out on its own.
    if (this.failed && text.trim() !== "") this.enqueue(() => this.sendFinal(text));
  }

  protected override onStop(): void {
    this.#blocks.stop();
  }

  async #sendBlock(text: string): Promise<void> {
    const delay = this.o.humanDelay;
    if (delay !== undefined && this.#index > 0) {
      const ms = delay.minMs + this.random() * Math.max(0, delay.maxMs - delay.minMs);
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, ms));
    }
    await this.sendText(text, `block:${this.#index++}`, "block");
  }
}
