/**
 * The config of `channels.matrix`: schema, doctor rules for the retired keys, capabilities,
 * delivery policy and id rules. This is the plugin's light `configEntry`: it imports the SDK's
 * config entry point and zod only (never matrix-js-sdk), so validation and `openclaw doctor` can
 * load it without the platform library.
 */
import type { ChannelCapabilities, ChatKind } from "@openclaw/plugin-sdk";
import {
  channelConfigSchema,
  defineChannelConfig,
  groupSettingsShape,
  previewStreamingSchema,
  progressOptionsSchema,
  type SenderIdProblem,
  STANDARD_FLAT_KEYS,
} from "@openclaw/plugin-sdk/config";
import { z } from "zod";

/** The longest text sent in one Matrix event before a reply continues in the next (default `textChunkLimit`). */
export const MATRIX_TEXT_LIMIT = 4000;

/** Default cap on a file sent or fetched, in megabytes (`mediaMaxMb`). */
export const MATRIX_MEDIA_MAX_MB = 20;

/** The MSC4357 marker a live (still growing) preview carries; the final edit drops it. */
export const LIVE_MARKER = "org.matrix.msc4357.live";

/** `streaming.mode` values Matrix accepts (`quiet`: an `m.notice` preview without mentions). */
export const MATRIX_STREAMING_MODES = ["off", "partial", "quiet", "progress"] as const;

const matrixGroupSchema = z.strictObject({ ...groupSettingsShape });

const roomStreamingSchema = z
  .strictObject({
    mode: z
      .enum(MATRIX_STREAMING_MODES)
      .optional()
      .describe(
        'Live preview mode in this room (default: the account\'s streaming.mode); "off" turns previews off here, any other mode turns them on.',
      ),
    progress: progressOptionsSchema.optional().describe("Progress draft options in this room, laid over the account's streaming.progress."),
  })
  .describe("Streaming settings of one room, laid over the account's streaming.");

/** Zod schema of `channels.matrix` (root keys, `accounts.<id>` overrides, nested `streaming`). */
export const matrixConfigSchema = channelConfigSchema({
  description: "Matrix (any homeserver, through matrix-js-sdk; end-to-end encryption with `encryption: true`).",
  textChunkLimit: MATRIX_TEXT_LIMIT,
  groupSettings: matrixGroupSchema,
  streaming: previewStreamingSchema({
    modes: MATRIX_STREAMING_MODES,
    defaultMode: "off",
    previewChunk: false,
    extra: {
      rooms: z
        .record(z.string().min(1), roomStreamingSchema)
        .optional()
        .describe(
          "Per-room overrides keyed by room id (`!abc:example.org`) or alias (`#room:example.org`, resolved when the bot connects or joins); an account's rooms merge with the channel's.",
        ),
    },
  }),
  shared: {
    homeserver: z
      .url()
      .optional()
      .describe("The homeserver's client-server API URL, e.g. https://matrix.example.org (default account: MATRIX_HOMESERVER)."),
    userId: z
      .string()
      .regex(/^@[^:]+:.+$/, "userId is a full Matrix user id like @bot:example.org")
      .optional()
      .describe(
        "The bot's full user id, e.g. @bot:example.org; needed with password, else read from /whoami (default account: MATRIX_USER_ID).",
      ),
    accessToken: z
      .string()
      .min(1)
      .optional()
      .describe("An access token of the bot's account (default account: MATRIX_ACCESS_TOKEN); wins over password."),
    password: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The bot's password (default account: MATRIX_PASSWORD): the plugin logs in once and keeps the token in the account's credentials folder (mode 0600).",
      ),
    deviceId: z.string().min(1).optional().describe("Device id to log in as (default: the one the homeserver assigns, then kept)."),
    deviceName: z.string().min(1).optional().describe('Display name of the bot\'s device on password login (default "OpenClaw").'),
    encryption: z
      .boolean()
      .optional()
      .describe("End-to-end encryption with the SDK's Rust crypto (default false); see docs/channels/matrix-encryption.md."),
    autoJoin: z
      .enum(["off", "allowlist", "always"])
      .optional()
      .describe(
        'Which invites the bot accepts (default "off"): "allowlist" only rooms and inviters in autoJoinAllowlist; "always" every invite.',
      ),
    autoJoinAllowlist: z
      .array(z.string().regex(/^([!#@][^:]+:.+|\*)$/, "autoJoinAllowlist entries are !room:server, #alias:server, @inviter:server or *"))
      .optional()
      .describe(
        'Rooms (`!id:server`, `#alias:server`) and inviters (`@user:server`) whose invites are accepted with autoJoin "allowlist".',
      ),
    replyToMode: z
      .enum(["off", "first", "all", "batched"])
      .optional()
      .describe('Quote the user\'s message in replies (m.in_reply_to): "off" (default), "first", "all", "batched".'),
    threadReplies: z
      .enum(["off", "inbound", "always"])
      .optional()
      .describe(
        'Answer in threads (default "inbound"): "inbound" answers a threaded message in its thread; "always" opens a thread on the message in rooms; "off" answers in the room.',
      ),
    mentionPatterns: z
      .array(z.string().min(1))
      .optional()
      .describe("Extra regular expressions (case-insensitive) that count as mentioning the bot in rooms."),
    allowBots: z
      .boolean()
      .optional()
      .describe("Answer other bots (senders listed in botUserIds or with a bot- prefix are bots) (default false: no bot loops)."),
    botUserIds: z
      .array(z.string().regex(/^@[^:]+:.+$/))
      .optional()
      .describe("User ids of other bots, ignored unless allowBots is true."),
    ackReaction: z
      .string()
      .min(1)
      .optional()
      .describe('A reaction (e.g. "👀") put on each message the bot takes, before it answers (default: none).'),
    typing: z.boolean().optional().describe("Show the typing indicator while the agent works (default true)."),
    readReceipts: z.boolean().optional().describe("Send a read receipt for each message the bot takes (default true)."),
    mediaMaxMb: z
      .number()
      .positive()
      .optional()
      .describe(`Largest file the bot downloads or sends, in megabytes (default ${MATRIX_MEDIA_MAX_MB}).`),
  },
});

/**
 * What Matrix can do: edits (`m.replace`) and redactions; about one edit a second keeps a room
 * readable and clear of the homeserver's rate limit.
 */
export const MATRIX_CAPABILITIES = {
  chatTypes: ["direct", "group"],
  edit: true,
  delete: true,
  media: true,
  reactions: true,
  threads: true,
  typing: true,
  textLimit: MATRIX_TEXT_LIMIT,
  editLimit: MATRIX_TEXT_LIMIT,
  minEditIntervalMs: 1000,
  // The final edit drops the live marker (and turns a quiet notice into a message), text unchanged or not.
  finalEditAfterPreview: true,
  sendRate: { perChat: 1, perChatBurst: 3, global: 10, globalBurst: 20 },
} as const satisfies ChannelCapabilities;

/** Room ids start with `!`; a DM is named by its peer's user id (`@user:server`). */
function matrixChatKindOf(id: string): ChatKind | undefined {
  if (id.startsWith("!") || id.startsWith("#")) return "group";
  if (id.startsWith("@")) return "direct";
  return undefined;
}

const FIND_USER_ID =
  'write the full user id with its homeserver, e.g. "@alice:example.org" (Element shows it in the user\'s profile; or ask them to message the bot and run `openclaw pairing list`).';

/** Which sender ids a Matrix user can have: a full user id `@localpart:server`. */
function checkMatrixSender(id: string): SenderIdProblem | undefined {
  if (/^@[^:\s]+:[^\s]+$/.test(id)) return undefined;
  if (id.startsWith("!") || id.startsWith("#")) {
    return {
      message: `${JSON.stringify(id)} is a room, not a person.`,
      fix: `list the room under groups (${JSON.stringify(id)}: { … }) and its members' user ids in groupAllowFrom.`,
    };
  }
  return { message: `${JSON.stringify(id)} is not a full Matrix user id.`, fix: FIND_USER_ID };
}

/** Matrix ids are case-sensitive in their server part only in theory; user ids are lowercase by spec, room ids keep their case. */
function canonicalRoomId(id: string): string {
  return id.trim();
}

/** Everything validation, doctor and the delivery planner need to know about `channels.matrix`. */
export const matrixChannelConfig = defineChannelConfig({
  id: "matrix",
  label: "Matrix",
  packageName: "@openclaw/matrix",
  schema: matrixConfigSchema,
  capabilities: MATRIX_CAPABILITIES,
  delivery: { previewModes: ["partial", "quiet", "progress"], defaultMode: "off", blockReplies: "explicit" },
  ids: {
    sender: (id) => id.trim().toLowerCase(),
    chat: canonicalRoomId,
    chatKindOf: matrixChatKindOf,
    checkSender: checkMatrixSender,
  },
  migrations: [
    // streamMode and scalar streaming -> streaming.mode (quiet kept); chunkMode, blockStreaming,
    // blockStreamingCoalesce -> streaming.chunkMode, streaming.block.enabled, streaming.block.coalesce.
    { kind: "streaming-aliases", modes: [...MATRIX_STREAMING_MODES], flatKeys: [...STANDARD_FLAT_KEYS] },
    // The reference's nested DM block and its legacy `rooms` map.
    { kind: "key-move", from: ["dm", "policy"], to: ["dmPolicy"] },
    { kind: "key-move", from: ["dm", "allowFrom"], to: ["allowFrom"] },
    { kind: "key-move", from: ["rooms"], to: ["groups"], expect: "object" },
  ],
});

export default matrixChannelConfig;
