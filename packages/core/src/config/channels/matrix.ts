import { channelConfigSchema, defineChannelConfig, defineStreamingAliasMigration, previewStreamingSchema } from "@openclaw/plugin-sdk";
import { z } from "zod";

const MATRIX_MODES = ["off", "partial", "quiet", "progress"] as const;

export const matrixChannel = defineChannelConfig({
  id: "matrix",
  label: "Matrix",
  packageName: "@openclaw/matrix",
  streamingDefaults: { previewMode: "off", blockReplies: "explicit" },
  schema: channelConfigSchema({
    description: "Matrix (matrix-js-sdk).",
    textChunkLimit: 4000,
    streaming: previewStreamingSchema({ modes: MATRIX_MODES, defaultMode: "off", previewChunk: false }),
    shared: {
      homeserver: z.url().optional().describe("Homeserver URL, e.g. https://matrix.example.org."),
      userId: z
        .string()
        .regex(/^@[^:]+:.+$/, 'a Matrix user id looks like "@bot:example.org"')
        .optional()
        .describe("The bot's user id."),
      accessToken: z.string().min(1).optional().describe("Access token (or use password to log in)."),
      password: z.string().min(1).optional().describe("Password used to log in when there is no accessToken."),
      deviceId: z.string().min(1).optional().describe("Device id to reuse across restarts."),
      deviceName: z.string().min(1).optional().describe("Device display name."),
      encryption: z.boolean().optional().describe("End-to-end encryption (default false)."),
      initialSyncLimit: z.int().min(0).optional().describe("Events per room fetched by the first sync."),
      replyToMode: z.enum(["off", "first", "all", "batched"]).optional().describe('Reply-to relations on answers (default "off").'),
      threadReplies: z
        .enum(["off", "inbound", "always"])
        .optional()
        .describe('Answer in threads: "inbound" (default) when the message was in a thread.'),
      autoJoin: z.boolean().optional().describe("Accept room invites automatically (default false)."),
    },
  }),
  migrations: [defineStreamingAliasMigration({ channelId: "matrix", modes: MATRIX_MODES })],
});
