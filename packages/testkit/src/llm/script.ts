import type { FakeStep, FakeTurn, RecordedRequest } from "./types.js";

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (part && typeof part === "object" && (part as { type?: unknown }).type === "text") {
        const text = (part as { text?: unknown }).text;
        return typeof text === "string" ? text : "";
      }
      return "";
    })
    .join("");
}

/**
 * The text of the last user message in an OpenAI or Anthropic request body (text parts joined;
 * tool results ignored). Empty string when there is none.
 */
export function lastUserText(request: RecordedRequest): string {
  const messages: unknown = request.body?.messages;
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i] as { role?: unknown; content?: unknown } | undefined;
    if (message?.role !== "user") continue;
    const text = textOfContent(message.content);
    if (text) return text;
  }
  return "";
}

/** The default responder: answers with the last user message's text, verbatim ("(empty)" when none). */
export function echoResponder(request: RecordedRequest): FakeTurn {
  return [{ text: lastUserText(request) || "(empty)" }];
}

/** Splits `text` into pieces of at most `size` characters (code points are never split). */
export function splitText(text: string, size: number): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(""));
  return pieces;
}

/** A rough token estimate (4 characters a token, at least 1). */
export function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

/** Tool-call arguments as the JSON text the model would stream. */
export function argumentsText(args: unknown): string {
  if (typeof args === "string") return args;
  return JSON.stringify(args ?? {});
}

/** Facts about a turn needed before it is played (for stop reasons and usage). */
export function summarizeTurn(turn: FakeTurn): {
  hasToolCalls: boolean;
  forcedStop?: "stop" | "length";
  usage?: { inputTokens: number; outputTokens: number };
} {
  let hasToolCalls = false;
  let forcedStop: "stop" | "length" | undefined;
  let usage: { inputTokens: number; outputTokens: number } | undefined;
  for (const step of turn as FakeStep[]) {
    if ("toolCall" in step) hasToolCalls = true;
    else if ("stopReason" in step) forcedStop = step.stopReason;
    else if ("usage" in step) usage = step.usage;
  }
  return { hasToolCalls, ...(forcedStop ? { forcedStop } : {}), ...(usage ? { usage } : {}) };
}

let counter = 0;
/** A unique-enough id with a prefix, e.g. "call_k3j2…". */
export function fakeId(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}`;
}
