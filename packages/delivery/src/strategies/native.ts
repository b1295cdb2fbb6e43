// Native stream: the platform's own streaming message (Feishu CardKit card, QQ stream_messages).
// One stream per reply: the assistant messages of a run with tool calls join it, a blank line apart.
import { NativeStreamController } from "../native-stream.js";
import { StrategyBase } from "./base.js";

/** Two pieces of a reply, a blank line apart (either may be blank). */
function join(before: string, after: string): string {
  if (before.trim() === "") return after;
  if (after.trim() === "") return before;
  return `${before}\n\n${after}`;
}

/** Internal: the strategy of a "native" plan. */
export class NativeStrategy extends StrategyBase {
  readonly kind = "native" as const;
  #stream: NativeStreamController | undefined;
  /** The text of the assistant messages that ended in tool calls. */
  #closed = "";
  /** The text of the current assistant message. */
  #current = "";

  protected onText(text: string): void {
    this.#current += text;
    this.#open().update(join(this.#closed, this.#current));
  }

  protected override onHeldText(text: string): void {
    this.#current += text;
  }

  protected override onToolStart(): void {
    this.#closed = join(this.#closed, this.#current);
    this.#current = "";
  }

  protected onFinal(text: string): void {
    const final = join(this.#closed, text);
    const stream = this.#stream;
    if (stream === undefined) {
      this.enqueue(() => this.sendFinal(final));
      return;
    }
    this.enqueue(async () => {
      const result = await stream.finalize(final);
      if (result.fallback !== undefined) this.recorder.fallbacks.push(result.fallback);
    });
  }

  protected override onStop(): void {
    this.#stream?.abort("the run ended without a reply");
  }

  #open(): NativeStreamController {
    if (this.#stream !== undefined) return this.#stream;
    const o = this.o;
    this.#stream = new NativeStreamController({
      outbound: this.outbound,
      target: this.nextTarget(),
      budget: o.budget,
      chatKey: o.chatKey,
      mode: o.nativeStream ?? "replace",
      ledger: o.ledger,
      ledgerKey: `${o.replyKey}:final`,
      info: { channel: o.channel, accountId: o.accountId, target: o.target },
      textLimit: o.textLimit,
      ...(o.nativeStreamLimit !== undefined ? { streamLimit: o.nativeStreamLimit } : {}),
      chunkMode: o.chunkMode,
      throttleMs: o.minEditIntervalMs,
      format: "markdown",
      idempotencyKey: `${o.replyKey}:stream`,
      signal: o.signal,
      clock: this.clock,
      ...(o.inReplyTo !== undefined ? { inReplyTo: o.inReplyTo } : {}),
    });
    return this.#stream;
  }
}
