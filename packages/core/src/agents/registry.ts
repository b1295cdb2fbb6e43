import { UserError } from "../config/paths.js";
import { DEFAULT_AGENT_ID, normalizeAgentId, parseAgentId } from "./ids.js";

/** The part of the config this module reads (kept loose so raw and validated configs both fit). */
interface AgentsConfigView {
  agents?: { entries?: Record<string, unknown> | undefined } | undefined;
}

function entriesOf(config: AgentsConfigView): [string, Record<string, unknown>][] {
  const entries = config.agents?.entries;
  if (!entries || typeof entries !== "object") return [];
  return Object.entries(entries).filter((e): e is [string, Record<string, unknown>] => !!e[1] && typeof e[1] === "object");
}

/**
 * The agent that handles what no binding claims: the entry marked `default: true`, else the
 * first entry, else `main` (no entries: a single-agent setup).
 */
export function resolveDefaultAgentId(config: AgentsConfigView): string {
  const entries = entriesOf(config);
  const chosen = entries.find(([, e]) => e.default === true) ?? entries[0];
  return chosen ? normalizeAgentId(chosen[0]) : DEFAULT_AGENT_ID;
}

/** Every agent id: the default first, then the other entries (normalized, deduplicated). */
export function listAgentIds(config: AgentsConfigView): string[] {
  return [...new Set([resolveDefaultAgentId(config), ...entriesOf(config).map(([id]) => normalizeAgentId(id))])];
}

/** The entry of an agent, matched case-insensitively; undefined for the implicit `main`. */
export function findAgentEntry<T = Record<string, unknown>>(config: AgentsConfigView, agentId: string): T | undefined {
  const id = normalizeAgentId(agentId);
  return entriesOf(config).find(([key]) => normalizeAgentId(key) === id)?.[1] as T | undefined;
}

/**
 * The agent a command works on: `requested` (`--agent`) when it names a known agent, else the
 * default agent. An unknown id is a UserError that lists the known ones.
 */
export function resolveAgentId(config: AgentsConfigView, requested: string | undefined, configPath?: string): string {
  if (requested === undefined) return resolveDefaultAgentId(config);
  const id = parseAgentId(requested);
  const known = listAgentIds(config);
  if (!known.includes(id)) {
    throw new UserError(
      `No agent "${id}" in ${configPath ?? "the config"}; known agents: ${known.join(", ")}. Add it under agents.entries.${id} or pick a known one.`,
    );
  }
  return id;
}
