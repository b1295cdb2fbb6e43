import { configPathIsTruthy, resolveApiKey, skillEntry, type AgentSkillAllowlist, type LooseConfig } from "./config.js";
import type { SkillCandidate } from "./load.js";
import type { WhichFn } from "./types.js";

/** What eligibility depends on besides the skill itself. */
export interface EligibilityContext {
  config: LooseConfig;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  which: WhichFn;
  agentId: string;
  allowBundled: string[] | undefined;
  allowlist: AgentSkillAllowlist;
}

/**
 * Every reason a well-formed, unshadowed skill may not be offered; empty means eligible.
 * Order: config switches (entries, allowBundled, agent allowlist), then `os`, then `requires`
 * (skipped when `always` is set). No gating metadata means only the config switches apply.
 */
export function ineligibilityReasons(skill: SkillCandidate, ctx: EligibilityContext): string[] {
  const reasons: string[] = [];
  const entry = skillEntry(ctx.config, skill.key);
  if (entry?.enabled === false) reasons.push(`disabled by skills.entries.${skill.key}.enabled`);
  if (
    skill.source === "bundled" &&
    ctx.allowBundled !== undefined &&
    !ctx.allowBundled.includes(skill.name) &&
    !ctx.allowBundled.includes(skill.key)
  ) {
    reasons.push("bundled skill not listed in skills.allowBundled");
  }
  const allowed = ctx.allowlist.names;
  if (allowed !== undefined && !allowed.includes(skill.name)) {
    reasons.push(
      allowed.length === 0
        ? `agent ${ctx.agentId} has no skills (${ctx.allowlist.from} is [])`
        : `not in ${ctx.allowlist.from} for agent ${ctx.agentId}`,
    );
  }
  const g = skill.gating;
  if (!g) return reasons;
  if (g.os.length > 0 && !g.os.includes(ctx.platform)) reasons.push(`os ${g.os.join(", ")} only`);
  if (g.always) return reasons;
  for (const bin of g.requires.bins) {
    if (!ctx.which(bin)) reasons.push(`missing binary: ${bin}`);
  }
  const any = g.requires.anyBins;
  if (any.length > 0 && !any.some((b) => ctx.which(b))) {
    reasons.push(`missing binary: none of ${any.join(", ")}`);
  }
  for (const name of g.requires.env) {
    if (!envProvided(name, skill, ctx)) reasons.push(`env ${name} not set`);
  }
  for (const dotted of g.requires.config) {
    if (!configPathIsTruthy(ctx.config, dotted)) reasons.push(`config ${dotted} not set`);
  }
  return reasons;
}

/** Set in the environment, in `skills.entries.<key>.env`, or via apiKey for the primaryEnv. */
function envProvided(name: string, skill: SkillCandidate, ctx: EligibilityContext): boolean {
  const fromEnv = ctx.env[name];
  if (fromEnv !== undefined && fromEnv !== "") return true;
  const entry = skillEntry(ctx.config, skill.key);
  const configured = entry?.env?.[name];
  if (typeof configured === "string" && configured !== "") return true;
  return skill.gating?.primaryEnv === name && resolveApiKey(entry?.apiKey, ctx.env) !== undefined;
}
