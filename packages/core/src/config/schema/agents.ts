import { blockCoalesceSchema } from "@openclaw/plugin-sdk/config";
import { z } from "zod";
import { agentIdSchema, durationSchema, modelSelectionSchema } from "./common.js";
import { compactionSchema } from "./compaction.js";
import { agentSkillLimitsSchema } from "./skills.js";
import { agentToolsSchema } from "./tools.js";

const humanDelaySchema = z
  .strictObject({
    mode: z
      .enum(["off", "natural", "custom"])
      .default("off")
      .describe('"off" (default); "natural" waits 800-2500 ms between blocks; "custom" uses minMs/maxMs.'),
    minMs: z.int().min(0).optional().describe("Shortest pause between block replies (custom mode)."),
    maxMs: z.int().min(0).optional().describe("Longest pause between block replies (custom mode)."),
  })
  .describe("A human-like pause between block replies.");

const heartbeatSchema = z
  .strictObject({
    every: durationSchema.default("30m").describe('How often the heartbeat turn runs (default "30m"; "0m" disables).'),
    target: z.string().optional().describe('Where heartbeat output goes, e.g. "<channel>:default:12345" (default: nowhere).'),
    activeHours: z
      .strictObject({
        start: z
          .string()
          .regex(/^\d{2}:\d{2}$/)
          .describe('Start of the active window, "HH:MM".'),
        end: z
          .string()
          .regex(/^\d{2}:\d{2}$/)
          .describe('End of the active window, "HH:MM".'),
      })
      .optional()
      .describe("Only run heartbeats inside this window (in userTimezone)."),
  })
  .describe("The periodic heartbeat turn that reads HEARTBEAT.md.");

const sandboxSchema = z
  .strictObject({
    mode: z.enum(["off", "non-main", "all"]).default("off").describe('Which sessions run sandboxed: "off" (default), "non-main", "all".'),
    scope: z
      .enum(["session", "agent", "shared"])
      .default("session")
      .describe("One sandbox per session (default), per agent, or one shared."),
    workspaceRoot: z.string().optional().describe("Where per-session sandbox workspaces are created."),
    workspaceAccess: z
      .enum(["rw", "ro", "none"])
      .default("rw")
      .describe("Access of sandboxed sessions to the agent workspace (default rw)."),
  })
  .describe("Sandboxing of agent sessions.");

const identitySchema = z
  .strictObject({
    name: z.string().optional().describe("The agent's display name."),
    emoji: z.string().optional().describe("An emoji that stands for the agent."),
    theme: z.string().optional().describe("A short description of the agent's vibe."),
    avatar: z.string().optional().describe("Path or URL of an avatar image."),
  })
  .describe("How the agent presents itself.");

/** `agents.defaults`: settings every agent inherits. */
export const agentDefaultsSchema = z
  .strictObject({
    workspace: z
      .string()
      .optional()
      .describe("The agent's working folder (default: OPENCLAW_WORKSPACE_DIR, else <stateDir>/workspace, i.e. ~/.openclaw/workspace)."),
    model: modelSelectionSchema.optional(),
    models: z
      .record(
        z.string().min(1),
        z.strictObject({
          alias: z.string().min(1).optional().describe("A short name usable wherever a model ref is expected."),
          params: z.record(z.string(), z.unknown()).optional().describe("Extra request parameters for this model (e.g. temperature)."),
        }),
      )
      .optional()
      .describe('Known models keyed by "provider/model", with aliases and parameters.'),
    skipBootstrap: z
      .boolean()
      .default(false)
      .describe("Never create workspace bootstrap files (for pre-seeded workspaces). Default false."),
    bootstrapMaxChars: z
      .int()
      .positive()
      .default(12000)
      .describe("Largest bootstrap file injected whole; longer files keep a head and a tail (default 12000)."),
    bootstrapTotalMaxChars: z
      .int()
      .positive()
      .default(60000)
      .describe("Budget for all bootstrap files together; files past it are dropped with a notice (default 60000)."),
    blockStreamingDefault: z
      .enum(["on", "off"])
      .default("off")
      .describe('Block replies for channels whose delivery policy inherits this default (blockReplies: "inherit"). Default "off".'),
    blockStreamingBreak: z
      .enum(["text_end", "message_end"])
      .default("text_end")
      .describe('When a block is complete: at each text end (default "text_end") or only at the end of the assistant message.'),
    blockStreamingChunk: z
      .strictObject({
        minChars: z.int().positive().default(800).describe("Never send a block shorter than this unless the reply ends (default 800)."),
        maxChars: z
          .int()
          .positive()
          .default(1200)
          .describe("Never send a block longer than this; clamped to the channel's textChunkLimit (default 1200)."),
        breakPreference: z
          .enum(["paragraph", "newline", "sentence"])
          .default("paragraph")
          .describe('Preferred break (default "paragraph"); then newline, sentence, whitespace, hard cut. Never inside a code fence.'),
      })
      .prefault({})
      .describe("Soft chunking of block replies."),
    blockStreamingCoalesce: blockCoalesceSchema
      .extend({ idleMs: z.int().min(0).default(1000).describe("Send what is pending after this idle time (default 1000 ms).") })
      .prefault({}),
    humanDelay: humanDelaySchema.prefault({}),
    compaction: compactionSchema,
    timeoutSeconds: z.int().positive().default(172800).describe("Longest a single agent run may take (default 172800 = 48 h)."),
    maxConcurrent: z
      .int()
      .positive()
      .optional()
      .describe("Most agent runs at once across all sessions (default: min(16, max(8, CPU count)))."),
    heartbeat: heartbeatSchema.optional(),
    sandbox: sandboxSchema.optional(),
    typingMode: z
      .enum(["never", "instant", "thinking", "message"])
      .optional()
      .describe('When to show "typing…": never, instantly on receipt, while thinking, or while the message is written.'),
    userTimezone: z.string().optional().describe("IANA timezone for the prompt's clock and activeHours (default: the host's)."),
    skills: z.array(z.string()).optional().describe("Skill allowlist: unset allows all; [] allows none; a list allows only those."),
  })
  .describe("Settings every agent inherits unless its entry overrides them.");

/** One agent under `agents.entries.<id>`. */
export const agentEntrySchema = z
  .strictObject({
    name: z.string().optional().describe("Display name."),
    default: z.boolean().optional().describe("Marks the agent that handles messages no binding matches (at most one)."),
    workspace: z
      .string()
      .optional()
      .describe("This agent's workspace (default: agents.defaults.workspace for the default agent, else <stateDir>/workspace-<id>)."),
    model: modelSelectionSchema.optional(),
    skills: z.array(z.string()).optional().describe("Skill allowlist for this agent; replaces agents.defaults.skills."),
    skillsLimits: agentSkillLimitsSchema.optional(),
    identity: identitySchema.optional(),
    tools: agentToolsSchema.optional(),
    sandbox: sandboxSchema.optional(),
    heartbeat: heartbeatSchema.optional(),
    humanDelay: humanDelaySchema.optional(),
    bootstrapMaxChars: z.int().positive().optional().describe("Overrides agents.defaults.bootstrapMaxChars."),
    bootstrapTotalMaxChars: z.int().positive().optional().describe("Overrides agents.defaults.bootstrapTotalMaxChars."),
    timeoutSeconds: z.int().positive().optional().describe("Overrides agents.defaults.timeoutSeconds for this agent's runs."),
  })
  .describe("One agent: its own workspace, model, skills and tools.");

export const agentsSchema = z
  .strictObject({
    defaults: agentDefaultsSchema.prefault({}),
    entries: z
      .record(agentIdSchema, agentEntrySchema)
      .optional()
      .describe('Agents keyed by id. Without entries there is one agent, "main".'),
  })
  .superRefine((agents, ctx) => {
    const seen = new Map<string, string>();
    let defaults = 0;
    for (const [id, entry] of Object.entries(agents.entries ?? {})) {
      const lower = id.toLowerCase();
      const other = seen.get(lower);
      if (other !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["entries", id],
          message: `agent ids are case-insensitive; "${id}" collides with "${other}". Rename one of them`,
        });
      }
      seen.set(lower, id);
      if (entry.default) defaults += 1;
    }
    if (defaults > 1) {
      ctx.addIssue({ code: "custom", path: ["entries"], message: "more than one agent has default: true; keep it on one agent" });
    }
  })
  .prefault({})
  .describe("Agents and their shared defaults.");
