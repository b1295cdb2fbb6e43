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
  agentId: z.string().optional().describe("Route this topic to another agent."),
});

const telegramGroupSchema = z.strictObject({
  ...groupSettingsShape,
  topics: z.record(z.string().min(1), topicSchema).optional().describe('Forum topics keyed by thread id or "*"; they inherit the group settings.'),
});

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
      replyToMode: z.enum(["off", "first", "all", "batched"]).optional().describe('Quote the user\'s message in replies: "off" (default), "first", "all", "batched".'),
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
