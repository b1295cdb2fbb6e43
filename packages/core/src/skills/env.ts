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
