import { z } from "zod";

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
        extraDirs: z.array(z.string()).default([]).describe("Extra skill folders, lowest precedence."),
      })
      .prefault({}),
    limits: z
      .strictObject({
        maxCandidatesPerRoot: z.int().positive().default(300),
        maxSkillsLoadedPerSource: z.int().positive().default(200),
        maxSkillsInPrompt: z.int().positive().default(150),
        maxSkillsPromptChars: z.int().positive().default(18000),
        maxSkillFileBytes: z.int().positive().default(256000),
      })
      .prefault({})
      .describe("Caps that keep skill discovery and the prompt small."),
  })
  .prefault({})
  .describe("Skills.");
