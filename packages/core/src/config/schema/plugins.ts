import { z } from "zod";

/** `plugins`: which plugins load. */
export const pluginsSchema = z
  .strictObject({
    enabled: z.boolean().default(true).describe("Set false to load no plugins at all."),
    allow: z.array(z.string().min(1)).optional().describe("When set, only these plugin ids load."),
    deny: z.array(z.string().min(1)).default([]).describe("Plugin ids that never load; deny wins over allow."),
    load: z
      .strictObject({
        paths: z.array(z.string().min(1)).default([]).describe("Extra folders searched for plugins."),
      })
      .prefault({}),
    entries: z
      .record(
        z.string().min(1),
        z.strictObject({
          enabled: z.boolean().optional().describe("Set false to keep a plugin installed but not loaded."),
        }),
      )
      .optional()
      .describe("Per-plugin settings keyed by plugin id."),
  })
  .prefault({})
  .describe("Plugins (channels are plugins).");
