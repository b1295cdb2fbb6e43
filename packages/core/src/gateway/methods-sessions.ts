// The control API's session methods: list, history (paged), search and reset.
import { z } from "zod";
import type { AgentRuntime } from "../agent/index.js";
import type { SessionSummary } from "../sessions/index.js";
import type { MethodHandler } from "./control-server.js";
import { parseParams } from "./method-params.js";
import { ControlError } from "./protocol.js";
import { resolveSessionTarget } from "./session-target.js";

const MAX_HISTORY = 1000;
const DEFAULT_HISTORY = 100;
/** Most sessions `sessions.search` answers with. */
export const SEARCH_LIMIT = 50;

const agentParams = z.object({ agentId: z.string().min(1).optional() });
const historyParams = z.object({
  sessionKey: z.string().min(1),
  agentId: z.string().min(1).optional(),
  limit: z.int().min(1).max(MAX_HISTORY).optional(),
  before: z.int().min(1).optional(),
});
const searchParams = z.object({ agentId: z.string().min(1).optional(), query: z.string().trim().min(1, "query must not be empty") });
const resetParams = z.object({ agentId: z.string().min(1).optional(), sessionKey: z.string().min(1) });

function describe(s: SessionSummary) {
  return {
    key: s.key,
    sessionId: s.sessionId,
    updatedAt: s.updatedAt,
    chatType: s.chatType ?? null,
    channel: typeof s.entry.channel === "string" ? s.entry.channel : null,
    displayName: typeof s.entry.displayName === "string" ? s.entry.displayName : null,
    eventCount: s.eventCount,
  };
}

/** `sessions.list`, `sessions.history`, `sessions.search`, `sessions.reset`. */
export function sessionMethods(runtime: AgentRuntime): Record<string, MethodHandler> {
  const agentOf = (requested: string | undefined) => resolveSessionTarget(runtime, requested ? { agentId: requested } : {}).agentId;
  return {
    "sessions.list": (params) => {
      const agentId = agentOf(parseParams(agentParams, params, "sessions.list").agentId);
      return { agentId, sessions: runtime.store(agentId).listSessions().map(describe) };
    },

    "sessions.history": (params) => {
      const p = parseParams(historyParams, params, "sessions.history");
      const { agentId, sessionKey } = resolveSessionTarget(runtime, p);
      const store = runtime.store(agentId);
      const entry = store.getEntry(sessionKey);
      if (!entry) throw new ControlError("not_found", `no session "${sessionKey}" for agent "${agentId}"`);
      const limit = p.limit ?? DEFAULT_HISTORY;
      const events = store.readTail(entry.sessionId, limit, p.before !== undefined ? { beforeSeq: p.before } : {});
      const first = events[0]?.seq;
      return {
        agentId,
        sessionKey,
        sessionId: entry.sessionId,
        total: store.countEvents(entry.sessionId),
        events,
        // The cursor of the page before this one; null once the session's first event is in view.
        nextBefore: first !== undefined && first > 1 ? first : null,
      };
    },

    "sessions.search": (params) => {
      const p = parseParams(searchParams, params, "sessions.search");
      const agentId = agentOf(p.agentId);
      const store = runtime.store(agentId);
      const sessions = store.listSessions();
      const needle = p.query.toLowerCase();
      const byName = (s: SessionSummary) =>
        s.key.toLowerCase().includes(needle) ||
        (typeof s.entry.displayName === "string" && s.entry.displayName.toLowerCase().includes(needle));
      const named = sessions.filter(byName);
      const rest = sessions.filter((s) => !byName(s));
      const inText = store.findText(
        rest.map((s) => s.sessionId),
        p.query,
      );
      const matches = [
        ...named.map((s) => ({ ...describe(s), match: "name" as const, seq: null })),
        ...rest
          .filter((s) => inText.has(s.sessionId))
          .map((s) => ({ ...describe(s), match: "transcript" as const, seq: inText.get(s.sessionId)! })),
      ];
      return { agentId, query: p.query, sessions: matches.slice(0, SEARCH_LIMIT), truncated: matches.length > SEARCH_LIMIT };
    },

    "sessions.reset": (params) => {
      const p = parseParams(resetParams, params, "sessions.reset");
      const { agentId, sessionKey } = resolveSessionTarget(runtime, p);
      const reset = runtime.store(agentId).resetSession(sessionKey, "control");
      return { ok: true, agentId, sessionKey, sessionId: reset.sessionId, previousSessionId: reset.previousSessionId ?? null };
    },
  };
}
