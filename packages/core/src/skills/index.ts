// Public surface of the skills concern. Other folders import from here only.
export { discoverSkills, eligibleSkills } from "./discover.js";
export type { DiscoverSkillsOptions, DiscoverSkillsResult } from "./discover.js";
export { buildSkillsPromptSection, compactHome, escapeXml } from "./prompt.js";
export type { PromptSkill, SkillsPromptOptions } from "./prompt.js";
export { applySkillEnv, skillExecEnv } from "./env.js";
export { readSkillBody } from "./body.js";
export { createWhich } from "./binaries.js";
export type { WhichOptions } from "./binaries.js";
export { defaultBundledSkillsDir, resolveSkillRoots } from "./roots.js";
export type { SkillRoot } from "./roots.js";
export { MAX_SKILL_DEPTH } from "./scan.js";
export {
  DEFAULT_SKILL_LIMITS,
  resolveAgentSkillAllowlist,
  resolveSkillLimits,
} from "./config.js";
export type { AgentSkillAllowlist, SkillEntryConfig, SkillLimits } from "./config.js";
export { SKILL_SOURCES } from "./types.js";
export type { SkillGating, SkillRecord, SkillSource, WhichFn } from "./types.js";
