import path from "node:path";
import { normalizeAgentId } from "../agents/index.js";

/** The database file name inside `<stateDir>/agents/<agentId>/agent/`. */
export const AGENT_DB_FILE = "openclaw-agent.sqlite";

/** `<stateDir>/agents/<agentId>/agent/openclaw-agent.sqlite` (agent id normalized). */
export function agentStorePath(stateDir: string, agentId?: string): string {
  return path.join(stateDir, "agents", normalizeAgentId(agentId), "agent", AGENT_DB_FILE);
}

/** `<stateDir>/agents/<agentId>/sessions`: where the legacy sessions.json and JSONL live. */
export function legacySessionsDir(stateDir: string, agentId?: string): string {
  return path.join(stateDir, "agents", normalizeAgentId(agentId), "sessions");
}
