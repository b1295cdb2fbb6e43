// What the delivery tests stream: replies whose repeated or lost text shows, and the block settings.
import type { DeliveryStrategyOptions } from "@openclaw/delivery";

/** Numbered sentences (a blank line every seventh), so any repeated or lost text shows. */
export function numberedReply(chars: number): string {
  let text = "";
  for (let i = 0; text.length < chars; i++) text += `Sentence number ${i} is here.${i % 7 === 6 ? "\n\n" : " "}`;
  return text.trim();
}

/** The block-streaming settings core resolves by default (800 / 1200, paragraph, idle 1000 ms). */
export const DEFAULT_BLOCK_SETTINGS: DeliveryStrategyOptions["block"] = {
  minChars: 800,
  maxChars: 1200,
  breakPreference: "paragraph",
  coalesce: { minChars: 800, maxChars: 1200, idleMs: 1000 },
  break: "text_end",
};
