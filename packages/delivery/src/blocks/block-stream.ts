// Block replies: the chunker splits the streamed text into blocks, the coalescer merges small
// ones before they are sent. Merged blocks are joined with the whitespace that separated them in
// the reply (a space inside a sentence, a blank line between paragraphs), never with a fixed
// joiner: the chunker may break at a space, and "\n\n" there would cut a sentence in two.
import type { BlockChunker } from "@openclaw/plugin-sdk";
import type { BlockCoalescer } from "./coalescer.js";

const FENCE_OPEN_HEAD = /^[ ]{0,3}(?:`{3,}|~{3,})[^\n]*\n/;
const FENCE_CLOSE_TAIL = /\n?[ ]{0,3}(?:`{3,}|~{3,})[ \t]*$/;
const PARAGRAPH = "\n\n";

/**
 * Internal: feeds a reply's text through `chunker` into `coalescer` (which must join with `""`),
 * prefixing each block but the first with its separator from the reply, so flushed texts joined
 * as they are give back the reply.
 */
export class BlockStream {
  /** Released text the chunker has not yet emitted as blocks (of the current text block). */
  private source = "";
  /** The next block starts a new text block (after text_end / message_end): a paragraph break. */
  private segmentStart = false;
  private synced = true;
  /** No block was emitted yet (the reply's first block has no separator before it). */
  private first = true;

  constructor(
    private readonly chunker: BlockChunker,
    private readonly coalescer: BlockCoalescer,
  ) {}

  /** New text of the reply. */
  push(text: string): void {
    this.source += text;
    this.emit(this.chunker.push(text));
  }

  /** A text block ended: emit what the chunker holds; the next text starts a new paragraph. */
  endSegment(): void {
    this.emit(this.chunker.flush({ force: true }));
    this.source = "";
    this.synced = true;
    this.segmentStart = true;
  }

  /** The reply ended: emit and send everything. */
  finish(): void {
    this.endSegment();
    this.coalescer.flush({ force: true });
  }

  stop(): void {
    this.coalescer.stop();
  }

  private emit(blocks: readonly string[]): void {
    for (const block of blocks) {
      const separator = this.separatorFor(block);
      // Every block but the reply's first keeps its separator, also when it starts a new merge: the
      // sender strips it (`blockText`) or needs it to join blocks it held back.
      this.coalescer.enqueue(this.first ? block : separator + block);
      this.first = false;
    }
  }

  /** The whitespace before `block` in the reply; consumes the block from `source`. */
  private separatorFor(block: string): string {
    let separator = this.synced ? this.consume(block) : undefined;
    if (separator === undefined) {
      // A block the chunker rewrote beyond recognition: stop tracking this text block.
      this.synced = false;
      this.source = "";
      separator = PARAGRAPH;
    }
    if (this.segmentStart) {
      this.segmentStart = false;
      if (!separator.includes(PARAGRAPH)) separator = PARAGRAPH;
    }
    return separator;
  }

  private consume(block: string): string | undefined {
    const whitespace = /^\s*/.exec(this.source)![0].length;
    const reopened = FENCE_OPEN_HEAD.test(block);
    // The chunker may close a code fence at the end of a block and reopen it in the next one.
    const variants = [
      block,
      block.replace(FENCE_CLOSE_TAIL, ""),
      block.replace(FENCE_OPEN_HEAD, ""),
      block.replace(FENCE_OPEN_HEAD, "").replace(FENCE_CLOSE_TAIL, ""),
    ];
    for (const variant of variants) {
      if (variant === "") continue;
      for (let at = 0; at <= whitespace; at++) {
        if (!this.source.startsWith(variant, at)) continue;
        const separator = this.source.slice(0, at);
        this.source = this.source.slice(at + variant.length);
        return reopened && !separator.includes("\n") ? `${separator}\n` : separator;
      }
    }
    return undefined;
  }
}

/** The text of a coalesced block as sent: without the separator it starts with (see `BlockStream`). */
export function blockText(text: string): string {
  return text.replace(/^[ \t]*\n+/, "").replace(/^ (?=\S)/, "");
}
