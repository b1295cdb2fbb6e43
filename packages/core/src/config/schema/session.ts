import { z } from "zod";

const resetSchema = z
  .strictObject({
    mode: z
      .enum(["none", "daily", "idle"])
      .optional()
      .describe('"none" (default): sessions never reset by time; "daily": at atHour; "idle": after idleMinutes without messages.'),
    atHour: z.int().min(0).max(23).optional().describe("Local hour of the daily reset (default 4)."),
    idleMinutes: z.int().positive().optional().describe("Minutes without a message after which the next one starts a new session."),
  })
  .describe("When a session starts over (a reset mints a new session id and keeps the old transcript).");

const dmScopeSchema = z
  .enum(["main", "per-peer", "per-channel-peer", "per-account-channel-peer"])
  .describe(
    'How DMs map to sessions: "main" (default: all DMs share the main session), "per-peer", "per-channel-peer", "per-account-channel-peer".',
  );

const groupScopeSchema = z.enum(["per-group", "main"]).describe('How groups map to sessions: "per-group" (default) or "main".');

export const sessionScopeSchema = z.strictObject({
  dmScope: dmScopeSchema.optional(),
  groupScope: groupScopeSchema.optional(),
});

/** `session`: how conversations map to sessions and when they reset. */
export const sessionSchema = z
  .strictObject({
    mainKey: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*$/)
      .default("main")
      .describe('Name of the main session (default "main").'),
    dmScope: dmScopeSchema.default("main"),
    groupScope: groupScopeSchema.default("per-group"),
    identityLinks: z
      .record(z.string().min(1), z.array(z.string().min(1)))
      .optional()
      .describe('Maps several peer ids to one person for non-main DM scopes: { alice: ["chat:123", "otherchat:@alice:hs"] }.'),
    reset: resetSchema.optional(),
    resetByType: z
      .strictObject({ direct: resetSchema.optional(), group: resetSchema.optional(), thread: resetSchema.optional() })
      .optional()
      .describe("Reset policy per chat type; overrides session.reset."),
    resetByChannel: z
      .record(z.string().min(1), resetSchema)
      .optional()
      .describe("Reset policy per channel; wins outright over resetByType and reset."),
    resetTriggers: z
      .array(z.string().min(1))
      .default(["/new", "/reset"])
      .describe('Messages that start a new session (default ["/new", "/reset"]).'),
  })
  .prefault({})
  .describe("Sessions: keys and resets.");
