// Stored transcript entries (pi session format) as the rows a page shows: user and assistant text,
// and each tool call folded with its result.
import type { StoredEvent } from "../api/types.js";

export type TranscriptRow =
  | { kind: "user"; seq: number; text: string }
  | { kind: "assistant"; seq: number; text: string }
  | { kind: "tool"; seq: number; callId: string; name: string; args: string; result?: string; isError?: boolean }
  | { kind: "note"; seq: number; text: string };

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is { type: "text"; text: string } => !!b && typeof b === "object" && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("");
}

function pretty(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? "";
  } catch {
    return String(value);
  }
}

/**
 * Rows in transcript order. A tool result is attached to the call it answers (by call id) when the
 * call is in `events`; a result whose call is on an earlier page shows as its own row.
 */
export function transcriptRows(events: readonly StoredEvent[]): TranscriptRow[] {
  const rows: TranscriptRow[] = [];
  const calls = new Map<string, Extract<TranscriptRow, { kind: "tool" }>>();
  for (const { seq, event } of events) {
    if (event.type === "compaction") {
      rows.push({ kind: "note", seq, text: "Earlier messages were summarised (compaction)." });
      continue;
    }
    if (event.type !== "message" || !event.message) continue;
    const message = event.message;
    if (message.role === "user") {
      rows.push({ kind: "user", seq, text: textOf(message.content) });
    } else if (message.role === "assistant") {
      const text = textOf(message.content);
      if (text) rows.push({ kind: "assistant", seq, text });
      const blocks = Array.isArray(message.content)
        ? (message.content as { type?: string; id?: string; name?: string; arguments?: unknown }[])
        : [];
      for (const block of blocks) {
        if (block?.type !== "toolCall" || typeof block.id !== "string") continue;
        const row = { kind: "tool" as const, seq, callId: block.id, name: String(block.name ?? "tool"), args: pretty(block.arguments) };
        calls.set(block.id, row);
        rows.push(row);
      }
    } else if (message.role === "toolResult") {
      const call = message.toolCallId ? calls.get(message.toolCallId) : undefined;
      const result = textOf(message.content);
      if (call) {
        call.result = result;
        call.isError = message.isError === true;
      } else {
        rows.push({
          kind: "tool",
          seq,
          callId: message.toolCallId ?? String(seq),
          name: message.toolName ?? "tool",
          args: "",
          result,
          isError: message.isError === true,
        });
      }
    }
  }
  return rows;
}

/** Merges two pages of stored events by `seq` (no duplicates, ascending). */
export function mergeEvents(a: readonly StoredEvent[], b: readonly StoredEvent[]): StoredEvent[] {
  const bySeq = new Map<number, StoredEvent>();
  for (const e of a) bySeq.set(e.seq, e);
  for (const e of b) bySeq.set(e.seq, e);
  return [...bySeq.values()].sort((x, y) => x.seq - y.seq);
}
