/**
 * The config of `channels.telegram`: schema, doctor rules for the retired flat streaming keys,
 * capabilities, delivery policy and id rules. This is the plugin's light `configEntry`: it imports
 * the SDK's config entry point and zod only (no grammY), so validation and `openclaw doctor` can
 * load it without the platform library.
 */
import type { ChannelCapabilities, ChatKind } from "@openclaw/plugin-sdk";
import {
  channelConfigSchema,
  defineChannelConfig,
  DRAFT_CHUNK_KEY,
  groupSettingsShape,
  previewStreamingSchema,
  type SenderIdProblem,
  STANDARD_FLAT_KEYS,
} from "@openclaw/plugin-sdk/config";
import { z } from "zod";

/** Defaults of the webhook listener (used when `webhookUrl` is set). */
export const WEBHOOK_DEFAULTS = { host: "127.0.0.1", port: 8787, path: "/telegram-webhook" } as const;

/** Telegram's default `textChunkLimit` (the Bot API's own limit is 4096 visible characters). */
export const TELEGRAM_TEXT_CHUNK_LIMIT = 4000;

const topicSchema = z.strictObject({
  ...groupSettingsShape,
  agentId: z.string().optional().describe("Route this topic to another agent (an exact peer binding still wins)."),
});

const telegramGroupSchema = z.strictObject({
  ...groupSettingsShape,
  topics: z
    .record(z.string().min(1), topicSchema)
    .optional()
    .describe('Forum topics keyed by thread id or "*"; they inherit the group settings.'),
});

/** Zod schema of `channels.telegram` (root keys, `accounts.<id>` overrides, nested `streaming`). */
export const telegramConfigSchema = channelConfigSchema({
  description: "Telegram bots (Bot API via grammY).",
  textChunkLimit: TELEGRAM_TEXT_CHUNK_LIMIT,
  groupSettings: telegramGroupSchema,
  streaming: previewStreamingSchema({ modes: ["off", "partial", "block", "progress"], defaultMode: "partial" }),
  shared: {
    botToken: z.string().min(1).optional().describe("Bot token from @BotFather (default account: TELEGRAM_BOT_TOKEN)."),
    tokenFile: z.string().min(1).optional().describe("File holding the bot token (instead of botToken)."),
    webhookUrl: z.url().optional().describe("Public HTTPS URL for webhook mode; unset means long polling."),
    webhookSecret: z.string().min(1).optional().describe("Secret Telegram sends with each webhook call (required with webhookUrl)."),
    webhookHost: z
      .string()
      .min(1)
      .optional()
      .describe(
        `Address the webhook listener binds to (default "${WEBHOOK_DEFAULTS.host}"; use "0.0.0.0" behind a proxy on another host).`,
      ),
    webhookPort: z
      .int()
      .min(0)
      .max(65535)
      .optional()
      .describe(`Port of the local webhook listener that webhookUrl is forwarded to (default ${WEBHOOK_DEFAULTS.port}).`),
    webhookPath: z
      .string()
      .regex(/^\//, "webhookPath must start with '/'")
      .optional()
      .describe(`Path the webhook listener accepts updates on (default "${WEBHOOK_DEFAULTS.path}").`),
    replyToMode: z
      .enum(["off", "first", "all", "batched"])
      .optional()
      .describe('Quote the user\'s message in replies: "off" (default), "first", "all", "batched".'),
    linkPreview: z.boolean().optional().describe("Show link previews in sent messages (default true)."),
  },
  rootOnly: {
    apiRoot: z.url().optional().describe("Bot API root without /bot<token> (default https://api.telegram.org)."),
  },
});

/** What Telegram can do, as data (core checks configured streaming modes against it). */
export const TELEGRAM_CAPABILITIES = {
  chatTypes: ["direct", "group", "channel"],
  edit: true,
  delete: true,
  media: true,
  reactions: false,
  threads: true,
  typing: true,
  textLimit: TELEGRAM_TEXT_CHUNK_LIMIT,
  editLimit: 4096,
  minEditIntervalMs: 1000,
} as const satisfies ChannelCapabilities;

/** Negative ids are groups and supergroups; positive ones are users (DMs). */
function telegramChatKind(id: string): ChatKind | undefined {
  if (id.startsWith("-")) return "group";
  return /^\d+$/.test(id) ? "direct" : undefined;
}

const FIND_USER_ID =
  "ask the user to message the bot and run `openclaw pairing list` (it shows their numeric id), or find the id with @userinfobot, and write that number.";

/**
 * Which sender ids a Telegram user can have: a positive whole number (`"*"` and the `tg:` /
 * `telegram:` prefixes are handled by core). Usernames and negative (chat) ids never match.
 */
function checkTelegramSender(id: string): SenderIdProblem | undefined {
  if (/^[1-9]\d*$/.test(id)) return undefined;
  if (id.startsWith("@")) {
    return { message: `${JSON.stringify(id)} is a username; Telegram allows senders by numeric user id.`, fix: FIND_USER_ID };
  }
  if (/^-\d+$/.test(id)) {
    return {
      message: `${JSON.stringify(id)} is a group chat id, not a user id.`,
      fix: `list the group under groups (${JSON.stringify(id)}: { … }) and its members' numeric user ids in groupAllowFrom.`,
    };
  }
  return { message: `${JSON.stringify(id)} is not a Telegram user id (a positive whole number, e.g. 123456789).`, fix: FIND_USER_ID };
}

/** Everything validation, doctor and the delivery planner need to know about `channels.telegram`. */
export const telegramChannelConfig = defineChannelConfig({
  id: "telegram",
  label: "Telegram",
  packageName: "@openclaw/telegram",
  schema: telegramConfigSchema,
  capabilities: TELEGRAM_CAPABILITIES,
  delivery: { previewModes: ["partial", "block", "progress"], defaultMode: "partial", blockReplies: "inherit" },
  ids: { prefixes: ["tg"], chatKindOf: telegramChatKind, checkSender: checkTelegramSender },
  migrations: [
    {
      kind: "streaming-aliases",
      modes: ["off", "partial", "block", "progress"],
      flatKeys: [...STANDARD_FLAT_KEYS, DRAFT_CHUNK_KEY],
    },
  ],
});

export default telegramChannelConfig;
