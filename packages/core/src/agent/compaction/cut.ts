// Where a compaction cuts the history: before a user message (or, inside one long turn, before
// an assistant message), never between a tool call and its result.
import type { StoredEvent } from "../../sessions/index.js";
import { tokensOfChars } from "./tokens.js";

interface MessageLike {
  role?: unknown;
  content?: unknown;
  toolName?: unknown;
}

function messageOf(event: StoredEvent["event"]): MessageLike | undefined {
  if (event.type !== "message") return undefined;
  const message = (event as { message?: unknown }).message;
  return message && typeof message === "object" ? (message as MessageLike) : undefined;
}

/** Raw token estimate of one stored event (0 for events the model never sees). */
export function eventTokens(event: StoredEvent["event"]): number {
  const message = messageOf(event);
  if (!message) return 0;
  let chars = 0;
  const content = message.content;
  if (typeof content === "string") chars += content.length;
  else if (Array.isArray(content)) {
    for (const block of content as Array<Record<string, unknown>>) {
      if (typeof block?.text === "string") chars += block.text.length;
      if (block?.type === "toolCall") chars += String(block.name ?? "").length + JSON.stringify(block.arguments ?? {}).length;
    }
  }
  if (typeof message.toolName === "string") chars += message.toolName.length;
  return tokensOfChars(chars) + 4;
}

/**
 * The index (into `events`) of the first event to keep word for word, so that at most about
 * `keepRecentTokens` (raw estimate) stay. Events before it are summarized. The cut lands before
 * a user message when one is within the budget, else before an assistant message (every tool
 * call before it has its result before it too); never before a tool result. When even the last
 * such message is over the budget, the cut is the latest one there is. With `force` (a manual
 * compaction or a provider's overflow), a history that fits the budget is still cut before its
 * last user message. Undefined when there is nothing to summarize (the cut would be at the start).
 */
export function findCut(events: readonly StoredEvent[], keepRecentTokens: number, options: { force?: boolean } = {}): number | undefined {
  const roles = events.map((e) => messageOf(e.event)?.role);
  const firstMessage = roles.findIndex((r) => r !== undefined);
  // A cut at the first message would summarize nothing.
  const boundary = (i: number, role: "user" | "assistant") => roles[i] === role && i > firstMessage;
  let acc = 0;
  let start: number | undefined;
  for (let i = events.length - 1; i >= 0; i -= 1) {
    acc += eventTokens(events[i]!.event);
    if (acc > keepRecentTokens) {
      start = i + 1;
      break;
    }
  }
  const firstFrom = (from: number, role: "user" | "assistant") => {
    for (let i = from; i < events.length; i += 1) if (boundary(i, role)) return i;
    return undefined;
  };
  const lastBefore = (before: number, role: "user" | "assistant") => {
    for (let i = Math.min(before, events.length) - 1; i >= 0; i -= 1) if (boundary(i, role)) return i;
    return undefined;
  };
  if (start === undefined) return options.force ? (lastBefore(events.length, "user") ?? lastBefore(events.length, "assistant")) : undefined;
  const within = firstFrom(start, "user") ?? firstFrom(start, "assistant");
  if (within !== undefined) return within;
  // Over the budget whatever we do: keep as little as a clean cut allows.
  const user = lastBefore(start, "user");
  const assistant = lastBefore(start, "assistant");
  return user === undefined ? assistant : assistant === undefined ? user : Math.max(user, assistant);
}
