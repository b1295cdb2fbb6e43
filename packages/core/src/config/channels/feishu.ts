import {
  channelConfigSchema,
  chunkModeSchema,
  defineChannelConfig,
  defineStreamingAliasMigration,
  streamingBlockSchema,
} from "@openclaw/plugin-sdk";
import { z } from "zod";

const feishuStreaming = z
  .strictObject({
    mode: z
      .enum(["off", "partial"])
      .optional()
      .describe(
        '"partial" (default): the reply streams into a CardKit card that is updated in place; "off": the reply is sent when ready.',
      ),
    chunkMode: chunkModeSchema.optional(),
    block: streamingBlockSchema.optional(),
  })
  .describe("How replies are streamed to Feishu/Lark (nested form; the flat keys are retired).");

export const feishuChannel = defineChannelConfig({
  id: "feishu",
  label: "Feishu / Lark",
  packageName: "@openclaw/feishu",
  streamingDefaults: { previewMode: "partial", blockReplies: "explicit" },
  schema: channelConfigSchema({
    description: "Feishu and Lark (@larksuiteoapi/node-sdk).",
    textChunkLimit: 4000,
    streaming: feishuStreaming,
    shared: {
      appId: z.string().min(1).optional().describe("App id (default account: FEISHU_APP_ID)."),
      appSecret: z.string().min(1).optional().describe("App secret (default account: FEISHU_APP_SECRET)."),
      encryptKey: z.string().min(1).optional().describe("Event encryption key (webhook mode)."),
      verificationToken: z.string().min(1).optional().describe("Event verification token (webhook mode)."),
      domain: z
        .union([z.enum(["feishu", "lark"]), z.url()])
        .optional()
        .describe('"feishu" (default), "lark", or a custom https:// API root.'),
      connectionMode: z.enum(["websocket", "webhook"]).optional().describe('"websocket" (default) or "webhook".'),
      webhookPath: z.string().startsWith("/").optional().describe("HTTP path for webhook events."),
      webhookPort: z.int().min(1).max(65535).optional().describe("Port of the webhook listener."),
      replyToMode: z.enum(["off", "first", "all", "batched"]).optional().describe('Reply to the user\'s message (default "all").'),
    },
  }),
  migrations: [defineStreamingAliasMigration({ channelId: "feishu", modes: ["off", "partial"] })],
});
