import { z } from "zod";

/** Caps that keep skill discovery and the prompt small. */
export const skillLimitsShape = {
  maxCandidatesPerRoot: z.int().positive().default(300).describe("Folders examined per skill root (default 300)."),
  maxSkillsLoadedPerSource: z.int().positive().default(200).describe("Skills loaded per root (default 200)."),
  maxSkillsInPrompt: z.int().positive().default(150).describe("Skills listed in the prompt (default 150)."),
  maxSkillsPromptChars: z.int().positive().default(18000).describe("Characters the skills list may take in the prompt (default 18000)."),
  maxSkillFileBytes: z.int().positive().default(256000).describe("Largest SKILL.md read (default 256000 bytes)."),
};

/** Per-agent overrides of the limits (unset keys use skills.limits). */
export const agentSkillLimitsSchema = z
  .strictObject(
    Object.fromEntries(Object.entries(skillLimitsShape).map(([k, v]) => [k, v.unwrap().optional()])) as {
      [K in keyof typeof skillLimitsShape]: z.ZodOptional<z.ZodInt>;
    },
  )
  .describe("Overrides of skills.limits for this agent.");

/** `skills`: skill discovery and per-skill settings. */
export const skillsSchema = z
  .strictObject({
    entries: z
      .record(
        z.string().min(1),
        z.strictObject({
          enabled: z.boolean().optional().describe("Set false to disable this skill everywhere."),
          apiKey: z.string().optional().describe("Secret exposed to the skill as its primaryEnv variable."),
          env: z.record(z.string(), z.string()).optional().describe("Environment variables set for runs while unset in the process."),
          config: z.record(z.string(), z.unknown()).optional().describe("Free-form settings the skill documents."),
        }),
      )
      .optional()
      .describe("Per-skill settings keyed by skill key (its name unless metadata.openclaw.skillKey says otherwise)."),
    allowBundled: z.array(z.string()).optional().describe("When set, only these bundled skills are offered."),
    load: z
      .strictObject({
        extraDirs: z
          .array(z.string())
          .default([])
          .describe("Extra skill folders, lowest precedence (relative paths resolve against the state folder)."),
        allowSymlinkTargets: z
          .array(z.string())
          .default([])
          .describe("Folders a symlinked skill folder may point into; other symlinks that leave their root are ignored."),
      })
      .prefault({}),
    limits: z.strictObject(skillLimitsShape).prefault({}).describe("Caps that keep skill discovery and the prompt small."),
  })
  .prefault({})
  .describe("Skills.");
