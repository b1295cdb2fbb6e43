// Live preview (modes "partial", "block", "quiet"): one message per assistant message, edited in
// place as the text grows, continued in a new one past the edit limit, finalized in place.
import { PreviewController } from "../preview-controller.js";
import { StrategyBase } from "./base.js";
import type { DeliveryStrategyOptions, PreviewPlanMode } from "./types.js";

/** Internal: the strategy of a "preview" plan in a mode other than "progress". */
export class PreviewStrategy extends StrategyBase {
  readonly kind = "preview" as const;
  readonly #mode: PreviewPlanMode;
  #preview: PreviewController | undefined;
  /** The text of the current assistant message (what the open preview shows). */
  #text = "";
  /** Previews opened so far (one per assistant message that had text). */
  #index = 0;
  /** Tools running while the preview shows them; the segment closes when the reply continues. */
  readonly #runningTools = new Map<string, string>();
  #closeOnNextText = false;

  constructor(options: DeliveryStrategyOptions, mode: PreviewPlanMode) {
    super(options);
    this.#mode = mode;
  }

  protected onText(text: string): void {
    if (this.#closeOnNextText) {
      this.#closeOnNextText = false;
      this.#runningTools.clear();
      this.#closeSegment();
    }
    this.#open().update((this.#text += text));
  }

  protected override onHeldText(text: string): void {
    this.#open();
    this.#text += text;
  }

  protected override onToolStart(event: { callId: string; name: string }): void {
    if (this.#preview !== undefined && this.o.previewToolProgress !== false) {
      this.#runningTools.set(event.callId, event.name);
      this.#closeOnNextText = true;
      this.#showTools();
    } else {
      this.#closeSegment();
    }
  }

  protected override onToolEnd(event: { callId: string }): void {
    if (this.#runningTools.delete(event.callId) && this.#preview !== undefined) this.#showTools();
  }

  protected onFinal(text: string): void {
    if (this.#closeOnNextText) {
      // The run ended right after its tools: the open preview still shows the tool line.
      this.#closeOnNextText = false;
      this.#runningTools.clear();
      if (text.trim() === "" || text === this.#text) {
        const preview = this.#preview!;
        const shown = this.#text;
        this.#preview = undefined;
        this.enqueue(() => preview.finalize(shown));
        return;
      }
      this.#closeSegment();
    }
    const preview = this.#preview;
    if (preview !== undefined) {
      this.enqueue(() => preview.finalize(text));
      return;
    }
    if (this.#index > 0 && text.trim() === "") return;
    this.enqueue(() => this.sendFinal(text));
  }

  protected override onStop(): void {
    this.#preview?.abort();
  }

  #open(): PreviewController {
    if (this.#preview !== undefined) return this.#preview;
    const o = this.o;
    const block = this.#mode === "block";
    this.#preview = new PreviewController({
      outbound: this.outbound,
      target: this.nextTarget(),
      budget: o.budget,
      chatKey: o.chatKey,
      textLimit: o.textLimit,
      editLimit: block ? Math.min(o.previewChunkMax ?? 800, o.editLimit) : o.editLimit,
      minInitialChars: o.previewMinChars ?? (block ? 200 : 30),
      throttleMs: Math.max(o.minEditIntervalMs, 250),
      format: "markdown",
      idempotencyKey: `${o.replyKey}:preview:${this.#index}`,
      signal: o.signal,
      chunkMode: o.chunkMode,
      ...(o.finalEditAfterPreview ? { finalEditAfterPreview: true } : {}),
      clock: this.clock,
      ...(o.inReplyTo !== undefined ? { inReplyTo: o.inReplyTo } : {}),
    });
    return this.#preview;
  }

  /** The preview text with a line naming the tools that are running. */
  #showTools(): void {
    const names = [...new Set(this.#runningTools.values())];
    this.#preview?.update(names.length > 0 ? `${this.#text}\n\n⏳ ${names.join(", ")}…` : this.#text);
  }

  /** A message that ended in tool calls is complete: finalize its preview in place. */
  #closeSegment(): void {
    const preview = this.#preview;
    if (preview === undefined) return;
    const text = this.#text;
    this.#preview = undefined;
    this.#text = "";
    this.#index += 1;
    if (text.trim() === "") {
      preview.abort();
      return;
    }
    this.enqueue(() => preview.finalize(text));
  }
}
