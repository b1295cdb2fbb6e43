import { randomUUID } from "node:crypto";
import { z } from "zod";
import { findAgentEntry, listAgentIds, normalizeAgentId } from "../agents/index.js";
import { buildSessionKey, parseSessionKey } from "../sessions/index.js";
import { defineTool, ToolError, type AgentTool } from "../tool-contract/index.js";
import type { AgentRuntime } from "./runtime.js";

/** Longest reply text a session tool hands back to the calling model. */
const MAX_REPLY_CHARS = 8000;

const clip = (text: string, max = MAX_REPLY_CHARS) =>
  text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters]` : text;

interface Caller {
  runtime: AgentRuntime;
  agentId: string;
  sessionKey: string;
}

// Module constants: tools are built per session, and a schema's JSON form is converted once per object.
const SCHEMAS = {
  list: z.object({ limit: z.int().min(1).max(200).default(20).describe("How many sessions (default 20).") }),
  history: z.object({
    sessionKey: z.string().min(1).describe("Session key, e.g. agent:main:main."),
    limit: z.int().min(1).max(200).default(20).describe("How many messages (default 20)."),
  }),
  send: z
    .object({
      sessionKey: z.string().min(1).optional().describe("Target session key."),
      agentId: z.string().min(1).optional().describe("Target agent (its main session) when no sessionKey is given."),
      message: z.string().min(1).describe("What to send."),
    })
    .refine((v) => v.sessionKey || v.agentId, "give sessionKey or agentId"),
  spawn: z.object({
    task: z.string().min(1).describe("Everything the sub-agent needs to know; it does not see this conversation."),
    agentId: z.string().min(1).optional().describe("Which agent runs it (default: this one)."),
  }),
  none: z.object({}),
};

/** May `caller` reach agent `target`? Its own agent always; others only via tools.agentToAgent. */
function canReach(caller: Caller, target: string): boolean {
  if (target === caller.agentId) return true;
  const a2a = caller.runtime.config.tools.agentToAgent;
  return a2a.enabled && a2a.allow.map((id) => normalizeAgentId(id)).includes(target);
}

function refuseAgent(caller: Caller, target: string): never {
  throw new ToolError(
    `Agent "${target}" is not reachable from "${caller.agentId}": agent-to-agent tools need tools.agentToAgent.enabled: true and "${target}" in tools.agentToAgent.allow.`,
  );
}

function messageText(event: { type: string; message?: { role?: string; content?: unknown } }): string | undefined {
  if (event.type !== "message" || !event.message) return undefined;
  const { role, content } = event.message;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((b: { type?: string; text?: string; name?: string }) =>
              b.type === "text" ? b.text : b.type === "toolCall" ? `[tool ${b.name}]` : "",
            )
            .join("")
        : "";
  return `${role}: ${text}`;
}

/**
 * The session and agent tools: sessions_list, sessions_history, sessions_send, sessions_spawn,
 * agents_list and session_status (sub-agent sessions get no sessions_spawn). Reaching another
 * agent needs `tools.agentToAgent`.
 */
export function createSessionTools(caller: Caller): AgentTool[] {
  const { runtime } = caller;
  const parsedKey = parseSessionKey(caller.sessionKey);
  const isSubagent = parsedKey.kind === "subagent" || parsedKey.baseKind === "subagent";

  const sessionsList = defineTool({
    name: "sessions_list",
    description: "List this agent's sessions (key, kind, last update, tokens), newest first.",
    groups: ["group:sessions"],
    schema: SCHEMAS.list,
    async run({ limit }) {
      const rows = runtime.store(caller.agentId).listSessions().slice(0, limit);
      if (rows.length === 0) return { content: "No sessions yet." };
      return {
        content: rows
          .map(
            (s) =>
              `${s.key} (${parseSessionKey(s.key).kind}) updated ${new Date(s.updatedAt).toISOString()}${s.entry.totalTokens ? `, ${s.entry.totalTokens} tokens` : ""}`,
          )
          .join("\n"),
      };
    },
  });

  const sessionsHistory = defineTool({
    name: "sessions_history",
    description: "Read the last messages of a session of this agent (or a reachable agent).",
    groups: ["group:sessions"],
    schema: SCHEMAS.history,
    async run({ sessionKey, limit }) {
      const target = parseSessionKey(sessionKey).agentId ?? caller.agentId;
      if (!canReach(caller, target)) refuseAgent(caller, target);
      const store = runtime.store(target);
      const entry = store.getEntry(sessionKey.toLowerCase());
      if (!entry) throw new ToolError(`No session "${sessionKey}". Use sessions_list to see the keys.`);
      const lines = store
        .readTail(entry.sessionId, limit * 3)
        .map((e) => messageText(e.event as never))
        .filter((l): l is string => l !== undefined)
        .slice(-limit);
      return { content: clip(lines.join("\n")) || "The session has no messages yet." };
    },
  });

  const sessionsSend = defineTool({
    name: "sessions_send",
    description: "Send a message to another session (or another agent's main session) and wait for its reply.",
    groups: ["group:sessions"],
    schema: SCHEMAS.send,
    async run({ sessionKey, agentId, message }, ctx) {
      const target = normalizeAgentId(agentId ?? parseSessionKey(sessionKey ?? "").agentId ?? caller.agentId);
      if (!canReach(caller, target)) refuseAgent(caller, target);
      const key = (sessionKey ?? runtime.mainSessionKey(target)).toLowerCase();
      if (key === caller.sessionKey) throw new ToolError("A session cannot send to itself; answer the user directly instead.");
      const result = await runtime.runTurn({ agentId: target, sessionKey: key, message, signal: ctx.signal, touch: false });
      if (result.status !== "ok") throw new ToolError(`The target run ended with ${result.status}: ${result.error?.message ?? ""}`);
      return { content: clip(result.text || "(the target chose not to reply)"), details: { sessionKey: key, runId: result.runId } };
    },
  });

  const sessionsSpawn = defineTool({
    name: "sessions_spawn",
    description: "Run a task in a fresh sub-agent session (minimal prompt, AGENTS.md and TOOLS.md only) and return its answer.",
    groups: ["group:sessions"],
    schema: SCHEMAS.spawn,
    async run({ task, agentId }, ctx) {
      const target = normalizeAgentId(agentId ?? caller.agentId);
      if (!canReach(caller, target)) refuseAgent(caller, target);
      const key = buildSessionKey({ kind: "subagent", agentId: target, id: randomUUID() });
      const result = await runtime.runTurn({
        agentId: target,
        sessionKey: key,
        message: task,
        signal: ctx.signal,
        promptMode: "minimal",
        touch: false,
        origin: { parentSessionKey: caller.sessionKey, spawnedBy: caller.agentId },
      });
      if (result.status !== "ok") throw new ToolError(`The sub-agent ended with ${result.status}: ${result.error?.message ?? ""}`);
      return { content: clip(result.text || "(no answer)"), details: { sessionKey: key } };
    },
  });

  const agentsList = defineTool({
    name: "agents_list",
    description: "List the agents this agent can reach with sessions_send and sessions_spawn.",
    groups: ["group:agents"],
    schema: SCHEMAS.none,
    async run() {
      const ids = listAgentIds(runtime.config).filter((id) => canReach(caller, id));
      return {
        content: ids
          .map((id) => {
            const entry = findAgentEntry<{ name?: string }>(runtime.config, id);
            return `${id}${entry?.name ? ` (${entry.name})` : ""}${id === caller.agentId ? " [you]" : ""}`;
          })
          .join("\n"),
      };
    },
  });

  const sessionStatus = defineTool({
    name: "session_status",
    description: "Show this session's key, id, model and token use.",
    groups: ["group:sessions"],
    schema: SCHEMAS.none,
    async run() {
      const entry = runtime.store(caller.agentId).getEntry(caller.sessionKey);
      if (!entry) return { content: `session ${caller.sessionKey}: not started` };
      return {
        content: [
          `session: ${caller.sessionKey}`,
          `id: ${entry.sessionId}`,
          `started: ${new Date(entry.sessionStartedAt).toISOString()}`,
          `model: ${(entry.model as string | undefined) ?? "(not yet used)"}`,
          `tokens: in ${entry.inputTokens ?? 0}, out ${entry.outputTokens ?? 0}`,
        ].join("\n"),
      };
    },
  });

  // Sub-agents may not spawn further sub-agents, so they are not offered the tool at all.
  return [sessionsList, sessionsHistory, sessionsSend, ...(isSubagent ? [] : [sessionsSpawn]), agentsList, sessionStatus];
}
