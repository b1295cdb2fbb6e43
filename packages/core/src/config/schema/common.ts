import { z } from "zod";

/** Agent ids: `/^[a-z0-9][a-z0-9_-]{0,63}$/i`; they are lowercased when resolved. */
export const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/i;
export const agentIdSchema = z
  .string()
  .regex(AGENT_ID_PATTERN, "agent ids use letters, digits, '-' and '_' (at most 64), starting with a letter or digit");

/** `provider/model`, split on the first "/", or a bare model id or alias. */
export const modelRefSchema = z.string().min(1).describe('A model ref: "provider/model" (split on the first "/") or an alias.');

/** A model: a ref (strict, no fallback) or a primary with fallbacks. */
export const modelSelectionSchema = z
  .union([
    modelRefSchema,
    z.strictObject({
      primary: modelRefSchema.describe("The model tried first."),
      fallbacks: z
        .array(modelRefSchema)
        .optional()
        .describe(
          "Tried in order when the primary fails with an auth, rate-limit, overload or timeout error (never on abort or context overflow).",
        ),
    }),
  ])
  .describe('The model: "provider/model", or { primary, fallbacks }.');

/** Durations such as "30m", "2h", "45s", "1d"; "0m" disables. */
export const durationSchema = z.string().regex(/^\d+(ms|s|m|h|d)$/, 'use a number and a unit, e.g. "30m", "2h", "45s" ("0m" disables)');
