// src/config.ts: the light config entry. It imports the SDK's config subpath and zod only, so
// config validation and `openclaw doctor` can load it without the rest of the plugin.
import { channelConfigSchema, defineChannelConfig, previewStreamingSchema } from "@openclaw/plugin-sdk/config";
import { z } from "zod";

/** Chatterbox accepts messages of up to 2000 characters. */
export const CHATTERBOX_TEXT_LIMIT = 2000;

/** The schema of `channels.chatterbox`. */
export const chatterboxConfigSchema = channelConfigSchema({
  description: "Chatterbox bots over the Chatterbox HTTP API.",
  textChunkLimit: CHATTERBOX_TEXT_LIMIT,
  streaming: previewStreamingSchema({ modes: ["off", "partial", "progress"], defaultMode: "partial" }),
  // Keys valid at the root and in every `accounts.<id>`:
  shared: {
    apiToken: z
      .string()
      .min(1)
      .optional()
      .describe("Bot token from the Chatterbox console (default account: the CHATTERBOX_TOKEN variable)."),
  },
  // Keys valid at the root only:
  rootOnly: {
    baseUrl: z.url().optional().describe("API root (default https://api.chatterbox.example)."),
  },
});

export default defineChannelConfig({
  id: "chatterbox",
  label: "Chatterbox",
  packageName: "openclaw-chatterbox",
  schema: chatterboxConfigSchema,
  capabilities: {
    chatTypes: ["direct", "group"],
    edit: true,
    delete: true,
    media: false,
    reactions: false,
    threads: false,
    typing: true,
    textLimit: CHATTERBOX_TEXT_LIMIT,
    minEditIntervalMs: 1000,
    sendRate: { perChat: 1, perChatBurst: 3, global: 30 },
  },
  delivery: { previewModes: ["partial", "progress"], defaultMode: "partial", blockReplies: "explicit" },
  // User ids start with `u-` (chats are `dm-…` and `g-…`): `openclaw config validate` refuses
  // any other entry in `allowFrom` and `groupAllowFrom`, since it could never match a sender.
  ids: {
    checkSender: (id) =>
      /^u-./i.test(id)
        ? undefined
        : {
            message: `${JSON.stringify(id)} is not a Chatterbox user id (user ids start with "u-").`,
            fix: "ask the user to message the bot and run `openclaw pairing list`, which shows their id.",
          },
  },
  // Release 0.x called the token `token`: doctor moves it (at the root and in every account).
  migrations: [{ kind: "key-move", from: ["token"], to: ["apiToken"] }],
});
