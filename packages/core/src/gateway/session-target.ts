import type { AgentRuntime } from "../agent/index.js";
import { parseSessionKey } from "../sessions/index.js";
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
