import type { ChatMessage, ToolCall } from "../providers/index.js";
import type { StoredEvent, TranscriptEventInput } from "../sessions/index.js";

/**
 * Transcript entries use the pi session format: `{type: "message", message: {role, content, …}}`
 * with assistant content as blocks (`text`, `toolCall`) and tool results as `toolResult`
 * messages. These helpers convert between that and the provider-neutral ChatMessage.
 */

type Block = { type: "text"; text: string } | { type: "toolCall"; id: string; name: string; arguments: unknown };

export function userMessageEvent(text: string, now: number): TranscriptEventInput {
  return { type: "message", message: { role: "user", content: text, timestamp: now } };
}

export function assistantMessageEvent(
  text: string,
  toolCalls: readonly ToolCall[],
  meta: { provider: string; model: string; stopReason: string; now: number; usage?: { input: number; output: number } },
): TranscriptEventInput {
  const content: Block[] = [];
  if (text) content.push({ type: "text", text });
  for (const call of toolCalls) content.push({ type: "toolCall", id: call.id, name: call.name, arguments: call.arguments });
  return {
    type: "message",
    message: {
      role: "assistant",
      content,
      provider: meta.provider,
      model: meta.model,
      stopReason: meta.stopReason,
      timestamp: meta.now,
      ...(meta.usage ? { usage: meta.usage } : {}),
    },
  };
}

export function toolResultEvent(call: ToolCall, result: { content: string; isError: boolean }, now: number): TranscriptEventInput {
  return {
    type: "message",
    message: {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: "text", text: result.content }],
      isError: result.isError,
      timestamp: now,
    },
  };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is { type: "text"; text: string } => !!b && typeof b === "object" && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("");
}

/**
 * Rebuilds the conversation for the model from stored events. Every tool call is paired with
 * a result: a call whose result is missing (a crash mid-tool) gets a synthetic error result, so
 * providers never see a dangling call.
 */
export function historyFromEvents(events: readonly StoredEvent[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let open: ToolCall[] = [];
  const answered = new Set<string>();
  const closeOpen = () => {
    for (const call of open) {
      if (!answered.has(call.id)) {
        out.push({
          role: "tool",
          toolCallId: call.id,
          name: call.name,
          content: "The tool did not finish (the run was interrupted).",
          isError: true,
        });
      }
    }
    open = [];
    answered.clear();
  };
  for (const { event } of events) {
    if (event.type !== "message") continue;
    const message = (event as { message?: Record<string, unknown> }).message;
    if (!message) continue;
    const role = message.role;
    if (role === "toolResult") {
      const id = String(message.toolCallId ?? "");
      if (!open.some((c) => c.id === id)) continue;
      answered.add(id);
      out.push({
        role: "tool",
        toolCallId: id,
        name: String(message.toolName ?? ""),
        content: textOf(message.content),
        isError: message.isError === true,
      });
      continue;
    }
    closeOpen();
    if (role === "user") {
      out.push({ role: "user", content: textOf(message.content) });
    } else if (role === "assistant") {
      const blocks = Array.isArray(message.content) ? (message.content as Block[]) : [];
      const calls = blocks
        .filter((b): b is Extract<Block, { type: "toolCall" }> => !!b && b.type === "toolCall")
        .map((b) => ({ id: b.id, name: b.name, arguments: b.arguments }));
      out.push({ role: "assistant", content: textOf(message.content), ...(calls.length ? { toolCalls: calls } : {}) });
      open = calls;
    }
  }
  closeOpen();
  return out;
}
