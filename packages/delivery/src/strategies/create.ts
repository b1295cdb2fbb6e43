// One strategy per delivery kind, chosen from the plan.
import { BlocksStrategy } from "./blocks.js";
import { FinalStrategy } from "./final.js";
import { NativeStrategy } from "./native.js";
import { PreviewStrategy } from "./preview.js";
import { ProgressStrategy } from "./progress.js";
import type { DeliveryPlanKind, DeliveryStrategy, DeliveryStrategyOptions } from "./types.js";

/**
 * The strategy that delivers one reply as `plan` says:
 * - `blocks`: block replies (chunker -> coalescer -> one message per block, `humanDelay` between);
 * - `preview` ("partial", "block", "quiet"): a live preview per assistant message, edited in place
 *   (paced at `minEditIntervalMs`, at least 250 ms), finalized in place; running tools show as a
 *   line under it unless `previewToolProgress` is false;
 * - `preview` ("progress"): a status draft of tool activity, deleted after the final is sent;
 * - `native`: the channel's native stream, falling back to an ordinary final;
 * - `final`: the final only.
 *
 * Every kind shows typing per `typingMode`, quotes per `replyToMode`, sends nothing for NO_REPLY,
 * and records finals and blocks in the ledger so none is sent twice.
 */
export function createDeliveryStrategy(plan: DeliveryPlanKind, options: DeliveryStrategyOptions): DeliveryStrategy {
  switch (plan.kind) {
    case "blocks":
      return new BlocksStrategy(options);
    case "preview":
      return plan.mode === "progress" ? new ProgressStrategy(options) : new PreviewStrategy(options, plan.mode);
    case "native":
      return new NativeStrategy(options);
    case "final":
      return new FinalStrategy(options);
  }
}
