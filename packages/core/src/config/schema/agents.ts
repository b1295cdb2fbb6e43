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

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const heartbeatSchema = z
  .strictObject({
    every: durationSchema
      .default("30m")
      .describe('How often the heartbeat turn runs, counted from the end of the last run (default "30m"; "0m" disables).'),
    target: z
      .string()
      .regex(
        /^\s*(last|none|[^:\s]+:[^:\s]+:.*\S)\s*$/i,
        'write "last", "none" or "<channel>:<accountId>:<chatId>" (a channel id as under channels.<id>, an account id such as "default", then the chat id)',
      )
      .optional()
      .describe(
        'Where a heartbeat reply goes: "last" (the chat that last wrote to the agent), "none" (default: nowhere), or "<channel>:<accountId>:<chatId>".',
      ),
    prompt: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The message of each heartbeat turn (default: read HEARTBEAT.md, follow it, and answer HEARTBEAT_OK when nothing needs attention).",
      ),
    ackMaxChars: z
      .int()
      .min(0)
      .default(300)
      .describe("A reply that starts or ends with HEARTBEAT_OK and has at most this many other characters is not delivered (default 300)."),
    activeHours: z
      .strictObject({
        start: z
          .string()
          .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
          .describe('Start of the active window, "HH:MM" (inclusive).'),
        end: z
          .string()
          .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/)
          .describe('End of the active window, "HH:MM" (exclusive; "24:00" is midnight). An end before the start spans midnight.'),
        timezone: z
          .string()
          .refine(isTimeZone, 'not a known IANA timezone; write one like "Europe/Berlin" or "UTC"')
          .optional()
          .describe("IANA timezone of start and end (default: agents.defaults.userTimezone, else the host's)."),
      })
      .optional()
      .describe("Only run scheduled heartbeats inside this window; `openclaw heartbeat now` ignores it."),
  })
  .describe("The periodic heartbeat turn in the agent's main session; only it gets HEARTBEAT.md.");

const sandboxSchema = z
  .strictObject({
    mode: z
      .enum(["off", "non-main", "all"])
      .default("off")
      .describe(
        'Which sessions work in a sandbox folder of their own instead of the agent workspace: "off" (default), "non-main" (all but the main session), "all".',
      ),
    scope: z
      .enum(["session", "agent", "shared"])
      .default("session")
      .describe(
        "One sandbox folder per session (default; <workspaceRoot>/sessions/<key>), per agent (<workspaceRoot>/agents/<id>), or one shared (<workspaceRoot>/shared).",
      ),
    workspaceRoot: z.string().optional().describe("Where sandbox folders are created (default <stateDir>/sandboxes)."),
    workspaceAccess: z
      .enum(["rw", "ro", "none"])
      .default("rw")
      .describe(
        "What file tools of sandboxed sessions may do in the agent workspace, by absolute path: rw read and write (default), ro read only, none nothing.",
      ),
  })
  .describe(
    "Sandboxed sessions: their own working folder, seeded with the bootstrap files. Folder only: commands still run on the host (no container).",
  );

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
