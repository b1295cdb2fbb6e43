import type { ChatMessage, ToolCall } from "../providers/index.js";
import type { StoredEvent, TranscriptEventInput } from "../sessions/index.js";
import type { LoopRecord } from "./loop.js";

/**
 * Transcript entries use the pi session format: `{type: "message", message: {role, content, …}}`
 * with assistant content as blocks (`text`, `toolCall`) and tool results as `toolResult`
 * messages. These helpers convert between that and the provider-neutral ChatMessage.
 */

type Block = { type: "text"; text: string } | { type: "toolCall"; id: string; name: string; arguments: unknown };

/**
 * The channel messages a user entry stands for: the `inbound` field of the entry (our addition to
 * the pi format). `keys` are inbox keys (`<channel>:<account>:<chat>:<message id>`); `steered`
 * marks text that joined a run already going (the opening text of a turn has no flag).
 */
export interface InboundTag {
  keys: readonly string[];
  steered?: boolean;
}

export function userMessageEvent(text: string, now: number, inbound?: InboundTag): TranscriptEventInput {
  return {
    type: "message",
    message: { role: "user", content: text, timestamp: now },
    // Steering is tagged even without keys, so a turn can be read back from the transcript.
    ...(inbound && (inbound.keys.length > 0 || inbound.steered)
      ? { inbound: { keys: [...inbound.keys], ...(inbound.steered ? { steered: true } : {}) } }
      : {}),
  };
}

/** A user entry that carries inbox keys: where it is, its text, and the tag. */
export interface RecordedInbound {
  seq: number;
  text: string;
  keys: string[];
  steered: boolean;
}

function inboundTagOf(event: Record<string, unknown>): { keys: string[]; steered: boolean } | undefined {
  const tag = event.inbound as { keys?: unknown; steered?: unknown } | undefined;
  if (!tag || !Array.isArray(tag.keys)) return undefined;
  return { keys: tag.keys.filter((k): k is string => typeof k === "string"), steered: tag.steered === true };
}

/**
 * Which inbox keys a transcript already holds: for each key, the first user entry that carries it.
 * A channel message found here reached the agent (its text is in the history) before a crash.
 */
export function recordedInbound(events: readonly StoredEvent[]): Map<string, RecordedInbound> {
  const out = new Map<string, RecordedInbound>();
  for (const { seq, event } of events) {
    if (event.type !== "message") continue;
    const message = (event as { message?: Record<string, unknown> }).message;
    if (message?.role !== "user") continue;
    const tag = inboundTagOf(event);
    if (!tag) continue;
    const entry = { seq, text: textOf(message.content), keys: tag.keys, steered: tag.steered };
    for (const key of tag.keys) if (!out.has(key)) out.set(key, entry);
  }
  return out;
}

/** How far a turn whose opening entry is at `seq` got before the process stopped. */
export type RecordedTurnState =
  /** It answered: the first assistant message after the opening that calls no tool. */
  | { kind: "answered"; text: string }
  /** A later turn opened before this one answered (it was aborted or failed): nothing to add. */
  | { kind: "superseded" }
  /** It stopped mid-way (a crash before the answer): the history ends with this turn. */
  | { kind: "unfinished" };

/**
 * Reads a turn back from the transcript, from its opening user entry at `seq`: what it answered,
 * or whether it was cut short. Steering entries (tagged `steered`) belong to the turn; any other
 * user entry opens the next turn.
 */
export function recordedTurnState(events: readonly StoredEvent[], seq: number): RecordedTurnState {
  for (const { seq: at, event } of events) {
    if (at <= seq || event.type !== "message") continue;
    const message = (event as { message?: Record<string, unknown> }).message;
    if (!message) continue;
    if (message.role === "user") {
      if (inboundTagOf(event)?.steered) continue;
      return { kind: "superseded" };
    }
    if (message.role !== "assistant") continue;
    const blocks = Array.isArray(message.content) ? (message.content as Block[]) : [];
    if (blocks.some((b) => !!b && b.type === "toolCall")) continue;
    return { kind: "answered", text: textOf(message.content) };
  }
  return { kind: "unfinished" };
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

const INTERRUPTED_TOOL = "The tool did not finish (the run was interrupted).";

/**
 * The conversation for the model, built from stored events one at a time, so a caller that keeps
 * it (see `compactedHistory`) adds only a turn's new events instead of converting the whole
 * history again. Every tool call is paired with a result: a call whose result is missing (a crash
 * mid-tool) gets a synthetic error result, so providers never see a dangling call. The messages
 * are frozen: they are shared by every conversation taken from the builder.
 */
export class HistoryBuilder {
  private readonly out: ChatMessage[] = [];
  /** The tool calls of the last assistant message, while no other message followed their results. */
  private open: readonly ToolCall[] = [];
  private readonly answered = new Set<string>();

  add(event: StoredEvent["event"]): void {
    if (event.type !== "message") return;
    const message = (event as { message?: Record<string, unknown> }).message;
    if (!message) return;
    const role = message.role;
    if (role === "toolResult") {
      const id = String(message.toolCallId ?? "");
      if (!this.open.some((c) => c.id === id)) return;
      this.answered.add(id);
      this.out.push(
        Object.freeze({
          role: "tool",
          toolCallId: id,
          name: String(message.toolName ?? ""),
          content: textOf(message.content),
          isError: message.isError === true,
        }),
      );
      return;
    }
    this.closeOpen(this.out);
    this.open = [];
    this.answered.clear();
    if (role === "user") this.out.push(Object.freeze({ role: "user", content: textOf(message.content) }));
    else if (role === "assistant") {
      const blocks = Array.isArray(message.content) ? (message.content as Block[]) : [];
      const calls = blocks
        .filter((b): b is Extract<Block, { type: "toolCall" }> => !!b && b.type === "toolCall")
        .map((b) => Object.freeze({ id: b.id, name: b.name, arguments: b.arguments }));
      const toolCalls = Object.freeze(calls) as ToolCall[];
      this.out.push(Object.freeze({ role: "assistant", content: textOf(message.content), ...(calls.length ? { toolCalls } : {}) }));
      this.open = toolCalls;
    }
  }

  /** The conversation so far (a new array each time; the builder goes on). */
  messages(): ChatMessage[] {
    const out = this.out.slice();
    this.closeOpen(out);
    return out;
  }

  /** Adds the synthetic results of the open calls still unanswered to `out`. */
  private closeOpen(out: ChatMessage[]): void {
    for (const call of this.open) {
      if (!this.answered.has(call.id)) {
        out.push(Object.freeze({ role: "tool", toolCallId: call.id, name: call.name, content: INTERRUPTED_TOOL, isError: true }));
      }
    }
  }
}

/** Rebuilds the conversation for the model from stored events (see {@link HistoryBuilder}). */
export function historyFromEvents(events: readonly StoredEvent[]): ChatMessage[] {
  const builder = new HistoryBuilder();
  for (const { event } of events) builder.add(event);
  return builder.messages();
}

/** The transcript event for one record of the agent loop (an assistant message, a tool result, a steering message). */
export function loopRecordEvent(entry: LoopRecord, now: number): TranscriptEventInput {
  switch (entry.kind) {
    case "assistant":
      return assistantMessageEvent(entry.text, entry.toolCalls, {
        provider: entry.provider,
        model: entry.model,
        stopReason: entry.stopReason,
        now,
        ...(entry.usage ? { usage: { input: entry.usage.inputTokens, output: entry.usage.outputTokens } } : {}),
      });
    case "tool_result":
      return toolResultEvent(entry.call, { content: entry.content, isError: entry.isError }, now);
    case "user":
      return userMessageEvent(entry.text, now, { keys: entry.inboundKeys ?? [], steered: true });
  }
}
