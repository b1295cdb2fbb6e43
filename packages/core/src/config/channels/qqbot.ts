import { channelConfigSchema, defineChannelConfig, defineStreamingAliasMigration } from "@openclaw/plugin-sdk";
import { z } from "zod";

const qqbotStreaming = z
  .strictObject({
    mode: z
      .enum(["partial", "off"])
      .optional()
      .describe('"partial" (default): block replies stream as the model writes; "off": one final reply.'),
    nativeTransport: z
      .boolean()
      .optional()
      .describe("Stream direct (C2C) replies through QQ's stream_messages API instead of separate messages (default false)."),
  })
  .describe('How replies are streamed to QQ (no block keys: QQ Bot streams blocks unless mode is "off").');

export const qqbotChannel = defineChannelConfig({
  id: "qqbot",
  label: "QQ Bot",
  packageName: "@openclaw/qqbot",
  streamingDefaults: { previewMode: "partial", blockReplies: "unless-off" },
  schema: channelConfigSchema({
    description: "QQ Bot (official HTTP + WebSocket API).",
    textChunkLimit: 2000,
    streaming: qqbotStreaming,
    shared: {
      appId: z.string().min(1).optional().describe("Bot AppID (default account: QQBOT_APP_ID)."),
      clientSecret: z.string().min(1).optional().describe("Bot AppSecret (default account: QQBOT_CLIENT_SECRET)."),
      clientSecretFile: z.string().min(1).optional().describe("File holding the AppSecret."),
      sandbox: z.boolean().optional().describe("Use QQ's sandbox environment (default false)."),
    },
  }),
  migrations: [
    defineStreamingAliasMigration({
      channelId: "qqbot",
      modes: ["partial", "off"],
      trueExtras: { nativeTransport: true },
      flatKeys: [],
      nestedRenames: [
        {
          from: "c2cStreamApi",
          to: "nativeTransport",
          check: (v) => (typeof v === "boolean" ? undefined : "expected true or false"),
        },
      ],
    }),
  ],
});
