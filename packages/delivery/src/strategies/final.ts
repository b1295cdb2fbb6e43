// Final only: nothing is shown while the agent writes; the answer is sent when it is complete.
import { StrategyBase } from "./base.js";

/** Internal: the strategy of a "final" plan. */
export class FinalStrategy extends StrategyBase {
  readonly kind = "final" as const;

  protected onText(): void {}

  protected onFinal(text: string): void {
    this.enqueue(() => this.sendFinal(text));
  }
}
