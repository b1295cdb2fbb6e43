// Native stream: the platform's own streaming message (Feishu CardKit card, QQ stream_messages).
import type { NativeStream } from "@openclaw/plugin-sdk";
import { StrategyBase } from "./base.js";

/** Internal: the strategy of a "native" plan. */
export class NativeStrategy extends StrategyBase {
  readonly kind = "native" as const;
  #stream: NativeStream | null | undefined;
  #text = "";
  #pending: Promise<NativeStream | null> | undefined;
  #lastUpdate = Number.NEGATIVE_INFINITY;

  protected onText(text: string): void {
    this.#text += text;
    if (this.#stream === null) return;
    if (this.#pending === undefined) {
      const open = this.outbound.openStream;
      this.#pending = open
        ? open(this.nextTarget(), this.sendOptions("preview", `${this.o.replyKey}:stream`)).catch(() => null)
        : Promise.resolve(null);
      void this.#pending.then((stream) => (this.#stream = stream));
    }
    const now = this.clock.now();
    if (now - this.#lastUpdate < this.o.minEditIntervalMs) return;
    this.#lastUpdate = now;
    const snapshot = this.#text;
    const pending = this.#pending;
    this.enqueue(async () => {
      const stream = await pending;
      if (stream) await stream.update(snapshot);
    });
  }

  protected override onHeldText(text: string): void {
    this.#text += text;
  }

  protected onFinal(text: string): void {
    const pending = this.#pending;
    if (pending === undefined) {
      this.enqueue(() => this.sendFinal(text));
      return;
    }
    this.enqueue(async () => {
      const stream = await pending;
      if (stream) await stream.finish(text);
      else await this.sendFinal(text);
    });
  }

  protected override onStop(): void {
    void this.#pending?.then((stream) => stream?.abort("the run ended without a reply")).catch(() => undefined);
  }
}
