import { DEFAULT_MAIN_KEY, DM_SCOPES, GROUP_SCOPES, type DmScope, type GroupScope } from "./keys.js";
import type { IdentityLinks } from "./identity-links.js";

/** `session.reset` and each entry of `resetByType` / `resetByChannel`, as written in config. */
export interface ResetPolicyConfig {
  mode?: "none" | "daily" | "idle";
  /** Local hour (0-23) of the daily reset; default 4. */
  atHour?: number;
  /** Minutes without a user interaction after which the session resets. */
  idleMinutes?: number;
}

/** The `session` config block with every default applied. */
export interface SessionConfig {
  /** Default `main`. */
  dmScope: DmScope;
  /** Default `per-group`. */
  groupScope: GroupScope;
  /** Default `main`. */
  mainKey: string;
  /** Default `{}`. */
  identityLinks: IdentityLinks;
  /** Default `{ mode: "none" }`. */
  reset: ResetPolicyConfig;
  /** Default `{}`. Keys `direct`, `group`, `thread` (the legacy `dm` is read as `direct`). */
  resetByType: Partial<Record<"direct" | "group" | "thread", ResetPolicyConfig>>;
  /** Default `{}`; a channel's entry wins outright over `reset` and `resetByType`. */
  resetByChannel: Record<string, ResetPolicyConfig>;
  /** Default `["/new", "/reset"]`. */
  resetTriggers: string[];
}

export const DEFAULT_RESET_TRIGGERS: readonly string[] = ["/new", "/reset"];

type Loose = Record<string, unknown>;

function asObject(v: unknown): Loose | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Loose) : undefined;
}

function asPolicy(v: unknown): ResetPolicyConfig | undefined {
  const o = asObject(v);
  if (!o) return undefined;
  const out: ResetPolicyConfig = {};
  if (o.mode === "none" || o.mode === "daily" || o.mode === "idle") out.mode = o.mode;
  if (typeof o.atHour === "number") out.atHour = o.atHour;
  if (typeof o.idleMinutes === "number") out.idleMinutes = o.idleMinutes;
  return out;
}

/**
 * Reads the `session` block of a (possibly unvalidated) config object and applies the
 * documented defaults. Unknown or mistyped values fall back to the default; validation with a
 * helpful message is the schema's job.
 */
export function resolveSessionConfig(config: unknown): SessionConfig {
  const session = asObject(asObject(config)?.session) ?? {};
  const dmScope = DM_SCOPES.includes(session.dmScope as DmScope) ? (session.dmScope as DmScope) : "main";
  const groupScope = GROUP_SCOPES.includes(session.groupScope as GroupScope) ? (session.groupScope as GroupScope) : "per-group";
  const mainKey =
    typeof session.mainKey === "string" && session.mainKey.trim() !== "" ? session.mainKey.trim().toLowerCase() : DEFAULT_MAIN_KEY;
  const identityLinks: IdentityLinks = {};
  for (const [name, ids] of Object.entries(asObject(session.identityLinks) ?? {})) {
    if (Array.isArray(ids)) identityLinks[name] = ids.filter((x): x is string => typeof x === "string");
  }
  const byTypeRaw = asObject(session.resetByType) ?? {};
  const resetByType: SessionConfig["resetByType"] = {};
  for (const type of ["direct", "group", "thread"] as const) {
    const p = asPolicy(byTypeRaw[type] ?? (type === "direct" ? byTypeRaw.dm : undefined));
    if (p) resetByType[type] = p;
  }
  const resetByChannel: Record<string, ResetPolicyConfig> = {};
  for (const [ch, v] of Object.entries(asObject(session.resetByChannel) ?? {})) {
    const p = asPolicy(v);
    if (p) resetByChannel[ch.toLowerCase()] = p;
  }
  const triggers = Array.isArray(session.resetTriggers)
    ? session.resetTriggers.filter((x): x is string => typeof x === "string" && x.trim() !== "")
    : [...DEFAULT_RESET_TRIGGERS];
  return {
    dmScope,
    groupScope,
    mainKey,
    identityLinks,
    reset: asPolicy(session.reset) ?? { mode: "none" },
    resetByType,
    resetByChannel,
    resetTriggers: triggers,
  };
}
