import { channelConfigSchema, defineChannelConfig, defineStreamingAliasMigration, deliveryOnlyStreamingSchema } from "@openclaw/plugin-sdk";
import { z } from "zod";

export const whatsappChannel = defineChannelConfig({
  id: "whatsapp",
  label: "WhatsApp",
  packageName: "@openclaw/whatsapp",
  streamingDefaults: { previewMode: null, blockReplies: "explicit" },
  schema: channelConfigSchema({
    description: "WhatsApp (linked device via Baileys).",
    textChunkLimit: 4000,
    streaming: deliveryOnlyStreamingSchema(),
    shared: {
      authDir: z
        .string()
        .min(1)
        .optional()
        .describe("Where the linked-device login is kept (default <stateDir>/credentials/whatsapp/<account>)."),
      selfChatMode: z.boolean().optional().describe("Treat messages you send to yourself as prompts (default false)."),
      sendReadReceipts: z.boolean().optional().describe("Mark handled messages as read (default true; never in self-chat)."),
    },
  }),
  migrations: [defineStreamingAliasMigration({ channelId: "whatsapp" })],
});
