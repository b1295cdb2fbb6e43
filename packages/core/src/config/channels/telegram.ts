import {
  channelConfigSchema,
  defineChannelConfig,
  defineStreamingAliasMigration,
  DRAFT_CHUNK_KEY,
  groupSettingsShape,
  previewStreamingSchema,
  STANDARD_FLAT_KEYS,
} from "@openclaw/plugin-sdk";
import { z } from "zod";

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

// Core's fallback copy of @openclaw/telegram's config definition: it lets `openclaw doctor` migrate
// and validate channels.telegram before the plugin is installed. An installed plugin's own
// definition replaces it; test/builtin-channels.test.ts fails when the two drift apart.
export const telegramChannel = defineChannelConfig({
  id: "telegram",
  label: "Telegram",
  packageName: "@openclaw/telegram",
  streamingDefaults: { previewMode: "partial", blockReplies: "inherit" },
  schema: channelConfigSchema({
    description: "Telegram bots (Bot API via grammY).",
    textChunkLimit: 4000,
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
        .describe(`Address the webhook listener binds to (default "127.0.0.1"; use "0.0.0.0" behind a proxy on another host).`),
      webhookPort: z
        .int()
        .min(0)
        .max(65535)
        .optional()
        .describe(`Port of the local webhook listener that webhookUrl is forwarded to (default 8787).`),
      webhookPath: z
        .string()
        .regex(/^\//, "webhookPath must start with '/'")
        .optional()
        .describe(`Path the webhook listener accepts updates on (default "/telegram-webhook").`),
      replyToMode: z
        .enum(["off", "first", "all", "batched"])
        .optional()
        .describe('Quote the user\'s message in replies: "off" (default), "first", "all", "batched".'),
      linkPreview: z.boolean().optional().describe("Show link previews in sent messages (default true)."),
    },
    rootOnly: {
      apiRoot: z.url().optional().describe("Bot API root without /bot<token> (default https://api.telegram.org)."),
    },
  }),
  migrations: [
    defineStreamingAliasMigration({
      channelId: "telegram",
      modes: ["off", "partial", "block", "progress"],
      flatKeys: [...STANDARD_FLAT_KEYS, DRAFT_CHUNK_KEY],
    }),
  ],
});
