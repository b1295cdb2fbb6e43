import type { AgentRuntime } from "../agent/index.js";
import { normalizeAgentId, parseSessionKey } from "../sessions/index.js";
import { ControlError } from "./protocol.js";

/**
 * The agent and session a control request means. `sessionKey` defaults to the agent's main
 * session; a bare `"main"` means `agent:<agent>:main`; the agent defaults to the one the key
 * names (`agent:<id>:...`), else the default agent. An agent that is not configured is refused.
 */
export function resolveSessionTarget(
  runtime: AgentRuntime,
  params: { agentId?: string; sessionKey?: string },
): { agentId: string; sessionKey: string } {
  const rawKey = params.sessionKey?.trim();
  const parsed = rawKey ? parseSessionKey(rawKey) : undefined;
  const requested = params.agentId ?? parsed?.agentId;
  let agentId: string;
  try {
    agentId = runtime.resolveAgent(requested);
  } catch (err) {
    throw new ControlError("invalid_params", (err as Error).message);
  }
  if (params.agentId && parsed?.agentId && parsed.agentId !== agentId) {
    throw new ControlError("invalid_params", `sessionKey "${rawKey}" belongs to agent "${parsed.agentId}", not "${agentId}"`);
  }
  if (!rawKey || rawKey.toLowerCase() === "main") return { agentId, sessionKey: runtime.mainSessionKey(agentId) };
  return { agentId, sessionKey: rawKey.toLowerCase() };
}

/** Characters a WebChat client id may hold (it becomes part of a session key). */
const CLIENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/**
 * The session key of a WebChat client: `agent:<agentId>:webchat:<clientId>` (lowercased). Throws
 * `invalid_params` for a client id that is not 1-64 letters, digits, `_` or `-`.
 */
export function webchatSessionKey(agentId: string, clientId: string): string {
  if (!CLIENT_ID.test(clientId)) {
    throw new ControlError(
      "invalid_params",
      "webchat.clientId must be 1-64 letters, digits, '_' or '-' (e.g. a random id the browser keeps)",
    );
  }
  return `agent:${normalizeAgentId(agentId)}:webchat:${clientId.toLowerCase()}`;
}
