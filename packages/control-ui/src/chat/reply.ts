// A reply as it streams in: the `agent` events of one run folded into text blocks and tool activity
// lines, in arrival order. Pure, so the 100 tokens/s budget test can check it apart from the DOM.
import type { AgentEvent } from "../api/types.js";

export type ReplyPart =
  | { kind: "text"; text: string }
  | { kind: "tool"; callId: string; name: string; state: "running" | "ok" | "error"; durationMs?: number };

export interface LiveReply {
  runId: string;
  parts: ReplyPart[];
  /** `streaming` until run_end; then the run's status (`ok`, `aborted`, `error`, `timeout`). */
  status: string;
  error?: string;
  /** The model answered NO_REPLY: nothing was delivered. */
  silent: boolean;
}

export function emptyReply(runId: string): LiveReply {
  return { runId, parts: [], status: "streaming", silent: false };
}

function streamedText(reply: LiveReply): string {
  return reply.parts.map((p) => (p.kind === "text" ? p.text : "")).join("");
}

/**
 * Applies one event. Text deltas append to the last text block (a new block after a tool line);
 * `final` adds its text only when nothing was streamed (a command's answer, a queued turn), so a
 * reply never shows twice. Returns a new object when something changed (for Preact), else `reply`.
 */
export function applyAgentEvent(reply: LiveReply, event: AgentEvent): LiveReply {
  switch (event.type) {
    case "text_delta": {
      if (!event.text) return reply;
      const parts = reply.parts.slice();
      const last = parts[parts.length - 1];
      if (last?.kind === "text") parts[parts.length - 1] = { kind: "text", text: last.text + event.text };
      else parts.push({ kind: "text", text: event.text });
      return { ...reply, parts };
    }
    case "tool_start":
      return { ...reply, parts: [...reply.parts, { kind: "tool", callId: event.callId, name: event.name, state: "running" }] };
    case "tool_end":
      return {
        ...reply,
        parts: reply.parts.map((p) =>
          p.kind === "tool" && p.callId === event.callId
            ? { ...p, state: event.isError ? "error" : "ok", durationMs: event.durationMs }
            : p,
        ),
      };
    case "final":
      if (event.silent) return { ...reply, silent: true };
      if (event.text && streamedText(reply).trim() === "") return { ...reply, parts: [...reply.parts, { kind: "text", text: event.text }] };
      return reply;
    case "error":
      return { ...reply, error: event.message };
    case "run_end":
      return { ...reply, status: event.status };
    default:
      return reply;
  }
}

/** The whole text the reply shows, blocks joined (what a user would copy). */
export function replyText(reply: LiveReply): string {
  return streamedText(reply);
}
