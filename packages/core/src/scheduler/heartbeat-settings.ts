// The heartbeat settings in force for one agent: agents.defaults.heartbeat overlaid by its entry's.
import { findAgentEntry, listAgentIds } from "../agents/index.js";
import type { OpenClawConfig } from "../config/index.js";
import type { ActiveHours } from "./active-hours.js";
import { parseTarget, type ScheduledTarget } from "./target.js";

/** The message of a heartbeat turn when `heartbeat.prompt` is not set. */
export const DEFAULT_HEARTBEAT_PROMPT =
  "This is a scheduled heartbeat, not a message from a person. Read HEARTBEAT.md in your Project Context and do what it asks, " +
  "checking only what it lists; do not revive tasks from earlier conversations on your own. " +
  "If nothing needs the user's attention, reply with exactly HEARTBEAT_OK.";

export interface HeartbeatSettings {
  agentId: string;
  /** Interval in ms (> 0). */
  everyMs: number;
  /** As written (for status), e.g. "30m". */
  every: string;
  target: ScheduledTarget;
  prompt: string;
  ackMaxChars: number;
  activeHours?: ActiveHours;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `"30m"`, `"2h"`, `"45s"`, `"1d"`, `"500ms"` -> milliseconds; undefined when unreadable. */
export function durationMs(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : undefined;
}

type HeartbeatConfig = NonNullable<OpenClawConfig["agents"]["defaults"]["heartbeat"]>;

/**
 * The heartbeat of `agentId`, or undefined when it has none: neither `agents.defaults.heartbeat`
 * nor its entry's `heartbeat` is set, or `every` is 0. The entry's block overlays the defaults'
 * key by key (its `every` defaults to "30m"). `activeHours.timezone` defaults to
 * `agents.defaults.userTimezone`. A malformed `target` throws an Error naming the config key.
 */
export function resolveHeartbeatSettings(config: OpenClawConfig, agentId: string): HeartbeatSettings | undefined {
  const defaults = config.agents.defaults.heartbeat;
  const own = findAgentEntry<{ heartbeat?: HeartbeatConfig }>(config, agentId)?.heartbeat;
  if (!defaults && !own) return undefined;
  const merged: Partial<HeartbeatConfig> = { ...defaults, ...own };
  const every = merged.every ?? "30m";
  const everyMs = durationMs(every) ?? 0;
  if (everyMs <= 0) return undefined;
  const key = own?.target !== undefined ? `agents.entries.${agentId}.heartbeat.target` : "agents.defaults.heartbeat.target";
  let target: ScheduledTarget;
  try {
    target = parseTarget(merged.target);
  } catch (err) {
    throw new Error(`${key}: ${(err as Error).message}`);
  }
  const hours = merged.activeHours;
  const timezone = hours?.timezone ?? config.agents.defaults.userTimezone;
  return {
    agentId,
    everyMs,
    every,
    target,
    prompt: merged.prompt ?? DEFAULT_HEARTBEAT_PROMPT,
    ackMaxChars: merged.ackMaxChars ?? 300,
    ...(hours ? { activeHours: { start: hours.start, end: hours.end, ...(timezone ? { timezone } : {}) } } : {}),
  };
}

/** Every configured agent with a heartbeat, default agent first. Agents with a malformed target are reported in `problems`. */
export function heartbeatAgents(config: OpenClawConfig): { settings: HeartbeatSettings[]; problems: string[] } {
  const settings: HeartbeatSettings[] = [];
  const problems: string[] = [];
  for (const agentId of listAgentIds(config)) {
    try {
      const s = resolveHeartbeatSettings(config, agentId);
      if (s) settings.push(s);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { settings, problems };
}
