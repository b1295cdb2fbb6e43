import { resolveApiKey, skillEntry, type LooseConfig } from "./config.js";
import type { SkillGating } from "./types.js";

/**
 * Applies each skill's `skills.entries.<key>.env` values, then its `apiKey` under the skill's
 * `primaryEnv`, to `env` (default `process.env`) for one agent run; skills marked
 * `eligible: false` are skipped. A variable that is
 * already set (even to "") is left alone, so the first skill to supply a variable wins. Returns a
 * restore function that removes exactly what was added, unless something changed it since;
 * calling it twice is harmless.
 */
export function applySkillEnv(
  skills: readonly { key: string; gating?: Pick<SkillGating, "primaryEnv">; eligible?: boolean }[],
  config: LooseConfig,
  env: NodeJS.ProcessEnv = process.env,
): () => void {
  const added = new Map<string, string>();
  const set = (name: string, value: string): void => {
    if (env[name] !== undefined) return;
    env[name] = value;
    added.set(name, value);
  };
  for (const skill of skills) {
    if (skill.eligible === false) continue;
    const entry = skillEntry(config, skill.key);
    if (!entry) continue;
    if (entry.env && typeof entry.env === "object") {
      for (const [name, value] of Object.entries(entry.env)) {
        if (typeof value === "string") set(name, value);
      }
    }
    const primary = skill.gating?.primaryEnv;
    const apiKey = resolveApiKey(entry.apiKey, env);
    if (primary && apiKey !== undefined) set(primary, apiKey);
  }
  return () => {
    for (const [name, value] of added) {
      if (env[name] === value) delete env[name];
    }
    added.clear();
  };
}

/**
 * The variables eligible skills add to exec's environment (which otherwise holds only a short list
 * of harmless variables, see `buildExecEnv`): for each skill, every name in its `requires.env`, its
 * `skills.entries.<key>.env` and its `primaryEnv`. A name set in `env` (the gateway's environment)
 * takes that value; otherwise the entry's `env` value, or for `primaryEnv` its `apiKey`. The first
 * skill to supply a name wins; names with no value anywhere are left out.
 */
export function skillExecEnv(
  skills: readonly { key: string; gating?: Pick<SkillGating, "primaryEnv" | "requires"> }[],
  config: LooseConfig,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const skill of skills) {
    const entry = skillEntry(config, skill.key);
    const configured = entry?.env && typeof entry.env === "object" ? entry.env : {};
    const primary = skill.gating?.primaryEnv;
    const names = new Set([...(skill.gating?.requires.env ?? []), ...Object.keys(configured), ...(primary ? [primary] : [])]);
    for (const name of names) {
      if (out[name] !== undefined) continue;
      const fromConfig = configured[name];
      const value =
        env[name] ??
        (typeof fromConfig === "string" ? fromConfig : undefined) ??
        (name === primary ? resolveApiKey(entry?.apiKey, env) : undefined);
      if (value !== undefined) out[name] = value;
    }
  }
  return out;
}
