// The answers of `/status` and `/context [detail]`, as chat text.
import { resolveContextWindow, type AgentRuntime } from "../agent/index.js";
import { describeQueueSettings, type MessageQueue } from "../queue/index.js";
import { assembleProjectContext, resolveWorkspaceSettings } from "../workspace/index.js";
import { fileSummary, KIND_LABEL, toolTable } from "./context-report.js";

/** Which chat session a command is about. */
export interface CommandSession {
  agentId: string;
  sessionKey: string;
  channel?: string;
}

const fence = (text: string): string => "```\n" + text.trimEnd() + "\n```";

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

/** Input tokens of the session's last model call (what its context held then), from the transcript. */
function lastContextTokens(runtime: AgentRuntime, agentId: string, sessionId: string): number | undefined {
  const tail = runtime.store(agentId).readTail(sessionId, 200);
  for (let i = tail.length - 1; i >= 0; i--) {
    const message = tail[i]!.event.message as { role?: string; usage?: { input?: number } } | undefined;
    if (message?.role === "assistant" && typeof message.usage?.input === "number") return message.usage.input;
  }
  return undefined;
}

/** `/status`: agent, session, model, context use, token totals and what the queue is doing. */
export function statusReport(runtime: AgentRuntime, queue: MessageQueue, session: CommandSession, now: number): string {
  const { agentId, sessionKey } = session;
  const entry = runtime.store(agentId).getEntry(sessionKey);
  const model = runtime.sessionModel(agentId, sessionKey);
  const lines = [`Agent: ${agentId}`];
  lines.push(
    entry
      ? `Session: ${sessionKey} (id ${entry.sessionId.slice(0, 8)}, started ${ago(now - entry.sessionStartedAt)} ago)`
      : `Session: ${sessionKey} (not started yet)`,
  );
  lines.push(`Model: ${model.ref ?? "none configured"} (${model.override ? "set for this chat with /model" : "configured default"})`);
  const used = entry ? lastContextTokens(runtime, agentId, entry.sessionId) : undefined;
  if (used === undefined) lines.push("Context: no model call in this session yet");
  else if (model.contextWindow)
    lines.push(
      `Context: ${used} of ${model.contextWindow} tokens (${Math.round((used / model.contextWindow) * 100)}%) at the last model call`,
    );
  else {
    const window = resolveContextWindow(runtime.config, model.ref);
    lines.push(
      `Context: ${used} of ${window} tokens (${Math.round((used / window) * 100)}%) at the last model call (window assumed: no contextWindow configured for this model)`,
    );
  }
  if (entry) lines.push(`Tokens this session: ${entry.inputTokens ?? 0} in, ${entry.outputTokens ?? 0} out`);
  const state = queue.sessionState(sessionKey);
  const running = state.active
    ? `a turn is running${state.active.startedAt !== undefined ? ` (for ${ago(now - state.active.startedAt)})` : ""}`
    : "idle";
  lines.push(`Queue: ${running}, ${state.queued} waiting. ${describeQueueSettings(queue.settings(sessionKey, session.channel))}`);
  return lines.join("\n");
}

/**
 * `/context` (the bootstrap files as injected into this session's prompt) and `/context detail`
 * (plus every tool the model is offered with the size of its definition): what
 * `openclaw context --detail` prints, without the full project text.
 */
export async function contextReport(runtime: AgentRuntime, session: CommandSession, detail: boolean): Promise<string> {
  const { agentId, sessionKey } = session;
  const settings = resolveWorkspaceSettings(runtime.config, agentId, runtime.paths);
  const result = await assembleProjectContext(settings.workspaceDir, {
    sessionKey,
    maxChars: settings.bootstrapMaxChars,
    totalMaxChars: settings.bootstrapTotalMaxChars,
  });
  const parts = [
    `Context of ${sessionKey} (${KIND_LABEL[result.sessionKind]})`,
    `Workspace: ${settings.workspaceDir}`,
    `Limits: ${result.totals.maxChars} characters per file, ${result.totals.totalMaxChars} for all files together`,
    fence(fileSummary(result)),
  ];
  if (result.bootstrapPending) parts.push("First run pending: BOOTSTRAP.md is present, so first-run guidance is added too.");
  if (detail) {
    // The built-in tools load on first use, not at gateway start.
    const { toolSchemaSizes } = await import("../tools/index.js");
    const tools = toolSchemaSizes(await runtime.toolsForSession(agentId, sessionKey, runtime.sessionModel(agentId, sessionKey).ref));
    parts.push("Tools the model is offered (their names, descriptions and schemas are sent with every call):");
    parts.push(fence(toolTable(tools)));
  } else parts.push("Send /context detail for the tools and their schema sizes.");
  return parts.join("\n");
}
