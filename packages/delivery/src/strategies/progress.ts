// Preview mode "progress": a status draft lists the tools at work; the answer is sent normally
// when it is complete, then the draft is deleted (kept when the answer could not be sent).
import { ProgressDraft } from "../progress-draft.js";
import { StrategyBase, summarizeArgs } from "./base.js";
import type { DeliveryStrategyOptions } from "./types.js";

/** Internal: the strategy of a "preview" plan in mode "progress". */
export class ProgressStrategy extends StrategyBase {
  readonly kind = "progress" as const;
  readonly #draft: ProgressDraft;
  readonly #toolLines: boolean;

  constructor(options: DeliveryStrategyOptions) {
    super(options);
    const p = options.progress ?? {};
    const label = p.labels !== undefined && p.labels.length > 0 ? p.labels[Math.floor(this.random() * p.labels.length)] : p.label;
    this.#toolLines = p.toolProgress !== false;
    this.#draft = new ProgressDraft({
      ...(label !== undefined ? { label } : {}),
      ...(p.maxLines !== undefined ? { maxLines: p.maxLines } : {}),
      ...(p.maxLineChars !== undefined ? { maxLineChars: p.maxLineChars } : {}),
      outbound: this.outbound,
      target: options.target,
      budget: options.budget,
      chatKey: options.chatKey,
      format: "markdown",
      idempotencyKey: `${options.replyKey}:progress`,
      signal: options.signal,
      clock: this.clock,
      ...(options.inReplyTo !== undefined ? { inReplyTo: options.inReplyTo } : {}),
    });
  }

  protected onText(): void {}

  protected override onToolStart(event: { callId: string; name: string; args: unknown }): void {
    if (this.#toolLines) this.#draft.toolStart(event.callId, `${event.name} ${summarizeArgs(event.args)}`);
  }

  protected override onToolEnd(event: { callId: string; isError: boolean }): void {
    if (this.#toolLines) this.#draft.toolEnd(event.callId, !event.isError);
  }

  protected onFinal(text: string): void {
    // The draft goes only once the answer was accepted: when it could not be sent, the draft stays
    // (no longer edited), so the chat never loses what it showed to nothing.
    this.enqueue(async () => {
      try {
        await this.sendFinal(text);
      } catch (error) {
        await this.#draft.stop();
        throw error;
      }
      await this.#draft.clear();
    });
  }

  protected override onStop(): void {
    // A progress draft would otherwise keep saying "Working…" forever.
    this.enqueue(() => this.#draft.clear());
  }
}
