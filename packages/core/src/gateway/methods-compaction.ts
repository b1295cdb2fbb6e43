// `sessions.compact`: the control API's way to compact a session now (`openclaw sessions compact`).
import { z } from "zod";
import type { AgentRuntime } from "../agent/index.js";
import type { MethodHandler } from "./control-server.js";
import { parseParams as parse } from "./method-params.js";
import { ControlError } from "./protocol.js";
import { resolveSessionTarget } from "./session-target.js";

const compactParams = z.object({
  sessionKey: z.string().min(1),
  agentId: z.string().min(1).optional(),
});

/**
 * `sessions.compact {sessionKey, agentId?}`: runs the memory flush and compacts the session, as
 * `/compact` does. Answers `{agentId, sessionKey, status, …}` with status `compacted` (plus
 * `reason`, `tokensBefore`, `tokensAfter`, `summarizedMessages`, `keptMessages`), `nothing`,
 * `busy` (a turn is running) or `disabled`; `not_found` when the session does not exist.
 */
export function compactionMethods(runtime: AgentRuntime): Record<string, MethodHandler> {
  return {
    "sessions.compact": async (params) => {
      const p = parse(compactParams, params, "sessions.compact");
      const { agentId, sessionKey } = resolveSessionTarget(runtime, p);
      if (!runtime.store(agentId).getEntry(sessionKey))
        throw new ControlError("not_found", `no session "${sessionKey}" for agent "${agentId}"`);
      const outcome = await runtime.compactSession(agentId, sessionKey);
      return { agentId, sessionKey, ...outcome };
    },
  };
}
