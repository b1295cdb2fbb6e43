/** What a run reports while it works, in order. Channels, the CLI and the control API consume these. */
export type AgentEvent =
  | { type: "run_start"; runId: string; agentId: string; sessionKey: string; sessionId: string; newSession: boolean }
  /** The model that answers this model call (after any fallback). */
  | { type: "model"; ref: string; attempt: number; skipped: string[] }
  | { type: "text_delta"; text: string }
  /** A block of assistant text is complete (before a tool call, or at the end of a message). */
  | { type: "text_end" }
  | { type: "tool_start"; callId: string; name: string; args: unknown }
  | { type: "tool_end"; callId: string; name: string; result: string; isError: boolean; durationMs: number }
  /** A message that arrived mid-run joined it before the next model call. */
  | { type: "steer"; text: string }
  /** One assistant message is complete. */
  | { type: "message_end"; text: string; stopReason: string }
  /** The reply to deliver. `silent` when the model answered NO_REPLY: deliver nothing. */
  | { type: "final"; text: string; silent: boolean }
  | { type: "error"; message: string; kind: string }
  /** The session's older turns were summarized (estimated prompt tokens before and after). */
  | { type: "compaction"; reason: "threshold" | "overflow" | "manual"; tokensBefore: number; tokensAfter: number }
  | { type: "run_end"; runId: string; status: RunStatus; usage: Usage; durationMs: number };

export type RunStatus = "ok" | "error" | "aborted" | "timeout";

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}
