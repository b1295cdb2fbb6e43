import { findAgentEntry } from "../agents/index.js";
// Reads the `skills.*` and `agents.*` keys this folder needs from a loosely typed config, applying
// the documented defaults itself so it works before and after the config schema applies them.
/**
 * The config as this folder reads it. Deliberately loose: any config object (typed by the schema
 * or raw JSON5) is accepted, and every read is optional-chained.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseConfig = Record<string, any>;

/** `skills.limits`, with defaults. */
export interface SkillLimits {
  /** Directories examined per root while looking for SKILL.md files. Default 300. */
  maxCandidatesPerRoot: number;
  /** SKILL.md files loaded per root. Default 200. */
  maxSkillsLoadedPerSource: number;
  /** Skills listed in the prompt. Default 150. */
  maxSkillsInPrompt: number;
  /** Characters of the whole prompt section. Default 18000. */
  maxSkillsPromptChars: number;
  /** A larger SKILL.md is reported and skipped. Default 256000. */
  maxSkillFileBytes: number;
}

export const DEFAULT_SKILL_LIMITS: Readonly<SkillLimits> = Object.freeze({
  maxCandidatesPerRoot: 300,
  maxSkillsLoadedPerSource: 200,
  maxSkillsInPrompt: 150,
  maxSkillsPromptChars: 18000,
  maxSkillFileBytes: 256000,
});

/** `skills.entries.<key>`. */
export interface SkillEntryConfig {
  enabled?: boolean;
  /** A string, or a SecretRef `{ source: "env", id }`. */
  apiKey?: unknown;
  env?: Record<string, unknown>;
  config?: Record<string, unknown>;
}

/** Looks an agent entry up by id, case-insensitively (agent ids are lowercased). */
export function agentEntry(config: LooseConfig, agentId: string): Record<string, unknown> | undefined {
  return findAgentEntry(config as never, agentId);
}

/**
 * `skills.limits`, overridden per agent by `agents.entries.<id>.skillsLimits`. Values that are
 * not positive numbers fall back to the defaults.
 */
export function resolveSkillLimits(config: LooseConfig, agentId?: string): SkillLimits {
  const base = isRecord(config?.skills?.limits) ? config.skills.limits : {};
  const perAgent = agentId ? agentEntry(config, agentId)?.skillsLimits : undefined;
  const over = isRecord(perAgent) ? perAgent : {};
  const out = { ...DEFAULT_SKILL_LIMITS };
  for (const k of Object.keys(out) as (keyof SkillLimits)[]) {
    const v = over[k] ?? base[k];
    if (typeof v === "number" && Number.isFinite(v) && v > 0) out[k] = Math.floor(v);
  }
  return out;
}

/** `skills.entries.<key>`, or undefined. */
export function skillEntry(config: LooseConfig, key: string): SkillEntryConfig | undefined {
  const entries = config?.skills?.entries;
  if (!isRecord(entries)) return undefined;
  const entry = entries[key];
  return isRecord(entry) ? (entry as SkillEntryConfig) : undefined;
}

/** `skills.allowBundled`: undefined when unset (every bundled skill allowed). */
export function resolveAllowBundled(config: LooseConfig): string[] | undefined {
  const list = config?.skills?.allowBundled;
  return Array.isArray(list) ? list.filter((s): s is string => typeof s === "string") : undefined;
}

/** `skills.load.extraDirs` as strings (unexpanded). */
export function resolveExtraDirs(config: LooseConfig): string[] {
  const dirs = config?.skills?.load?.extraDirs;
  return Array.isArray(dirs) ? dirs.filter((s): s is string => typeof s === "string" && s !== "") : [];
}

/** `skills.load.allowSymlinkTargets` as strings (unexpanded). */
export function resolveAllowSymlinkTargets(config: LooseConfig): string[] {
  const dirs = config?.skills?.load?.allowSymlinkTargets;
  return Array.isArray(dirs) ? dirs.filter((s): s is string => typeof s === "string" && s !== "") : [];
}

/** An agent's skill allowlist and the config path it came from. */
export interface AgentSkillAllowlist {
  /** undefined: every skill is allowed. [] : none is. */
  names: string[] | undefined;
  /** Config path of the list in force, for messages. */
  from?: string;
}

/**
 * The skill allowlist for an agent: `agents.entries.<id>.skills` when it is a list (an empty list
 * means no skills; a non-empty one replaces the defaults), else `agents.defaults.skills`, else
 * unrestricted.
 */
export function resolveAgentSkillAllowlist(config: LooseConfig, agentId: string): AgentSkillAllowlist {
  const own = agentEntry(config, agentId)?.skills;
  if (Array.isArray(own)) {
    return { names: own.filter((s) => typeof s === "string"), from: `agents.entries.${agentId}.skills` };
  }
  const defaults = config?.agents?.defaults?.skills;
  if (Array.isArray(defaults)) {
    return { names: defaults.filter((s) => typeof s === "string"), from: "agents.defaults.skills" };
  }
  return { names: undefined };
}

/**
 * Resolves `skills.entries.<key>.apiKey`: a non-empty string, or a SecretRef whose `source` is
 * "env" (read from `env[id]`). Other SecretRef sources are not resolved here and yield undefined.
 */
export function resolveApiKey(value: unknown, env: NodeJS.ProcessEnv): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value;
  if (isRecord(value) && value.source === "env" && typeof value.id === "string") {
    const v = env[value.id];
    return v === undefined || v === "" ? undefined : v;
  }
  return undefined;
}

/** True when the dotted path names a truthy value in the config (`a.b.c`). */
export function configPathIsTruthy(config: LooseConfig, dotted: string): boolean {
  let cur: unknown = config;
  for (const part of dotted.split(".")) {
    if (!isRecord(cur) && !Array.isArray(cur)) return false;
    cur = (cur as Record<string, unknown>)[part];
  }
  return Boolean(cur);
}

export function isRecord(v: unknown): v is Record<string, any> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
