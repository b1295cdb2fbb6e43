// The per-channel cap on inbound message size (`channels.<id>.maxInboundChars`, per account
// overridable): a longer message never reaches the agent; the sender is told in the chat.
import { DEFAULT_MAX_INBOUND_CHARS } from "@openclaw/plugin-sdk/config";

/** The message that is over its account's cap, with the numbers the notice and the log state. */
export interface TooLong {
  length: number;
  limit: number;
}

/**
 * Checks a message's text against the account's `maxInboundChars` (default
 * `DEFAULT_MAX_INBOUND_CHARS`); length in UTF-16 code units, as the platforms count. Undefined
 * when the message fits.
 */
export function checkInboundSize(text: string, accountConfig: Record<string, unknown>): TooLong | undefined {
  const configured = Number(accountConfig.maxInboundChars);
  const limit = Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_MAX_INBOUND_CHARS;
  return text.length > limit ? { length: text.length, limit } : undefined;
}

/** The short reply the sender gets instead of an answer (no config keys: groups see it too). */
export function tooLongNotice({ length, limit }: TooLong): string {
  const n = (value: number) => value.toLocaleString("en-US");
  return `Your message is too long, so it was not read: ${n(length)} characters, and the limit here is ${n(limit)}. Please send it in shorter parts.`;
}
