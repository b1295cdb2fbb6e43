/**
 * The config of `channels.qqbot`: schema, doctor rules for the retired streaming spellings,
 * capabilities, delivery policy and id rules. This is the plugin's light `configEntry`: it imports
 * the SDK's config entry point and zod only (no `ws`), so validation and `openclaw doctor` can load
 * it without the platform library.
 */
import type { ChannelCapabilities, ChatKind } from "@openclaw/plugin-sdk";
import { channelConfigSchema, defineChannelConfig, groupSettingsShape, type SenderIdProblem } from "@openclaw/plugin-sdk/config";
import { z } from "zod";

/** The official endpoints (`apiBase`, `tokenUrl`) and the sandbox API root (`sandbox: true`). */
export const QQBOT_ENDPOINTS = {
  apiBase: "https://api.sgroup.qq.com",
  sandboxApiBase: "https://sandbox.api.sgroup.qq.com",
  tokenUrl: "https://bots.qq.com/app/getAppAccessToken",
} as const;

/** The platform's limit on one message's content, in characters. */
export const QQBOT_TEXT_LIMIT = 5000;

/** Passive replies the platform allows per user message (typing, texts, files, stream sessions). */
export const QQBOT_PASSIVE_REPLIES = 5;

/** How long a user message can be answered passively: 60 minutes in C2C, 5 in groups. */
export const QQBOT_REPLY_WINDOW_MS = { direct: 60 * 60_000, group: 5 * 60_000 } as const;

/** Native stream updates at most about twice a second. */
export const QQBOT_STREAM_INTERVAL_MS = 500;

/** `channels.qqbot.streaming`: block replies unless `mode` is "off"; `nativeTransport` streams C2C. */
export const qqbotStreamingSchema = z
  .strictObject({
    mode: z
      .enum(["partial", "off"])
      .optional()
      .describe(
        'How replies are delivered (default "partial"): "partial" sends each completed block of the reply as it is written (or streams it, with nativeTransport); "off" sends the whole reply when it is ready.',
      ),
    nativeTransport: z
      .boolean()
      .optional()
      .describe(
        "Stream C2C (private chat) replies through QQ's stream_messages API: one message that grows as the reply is written (default false). Groups always get blocks.",
      ),
  })
  .describe("How replies are streamed to QQ (nested form; `streaming: true/false` and `c2cStreamApi` are retired).");

const qqGroupSchema = z.strictObject({ ...groupSettingsShape });

/** Zod schema of `channels.qqbot` (root keys, `accounts.<id>` overrides, nested `streaming`). */
export const qqbotConfigSchema = channelConfigSchema({
  description: "QQ Bot (the official QQ Bot API: HTTP and the WebSocket gateway).",
  textChunkLimit: QQBOT_TEXT_LIMIT,
  groupSettings: qqGroupSchema,
  streaming: qqbotStreamingSchema,
  shared: {
    appId: z
      .union([z.string().regex(/^\d+$/, "appId is the bot's numeric AppID"), z.int().positive()])
      .optional()
      .describe("The bot's AppID from the QQ open platform console (default account: QQBOT_APP_ID)."),
    clientSecret: z.string().min(1).optional().describe("The bot's AppSecret (default account: QQBOT_CLIENT_SECRET)."),
    clientSecretFile: z.string().min(1).optional().describe("File holding the AppSecret (instead of clientSecret)."),
    sandbox: z
      .boolean()
      .optional()
      .describe("Use the sandbox API (https://sandbox.api.sgroup.qq.com) for a bot in its test phase (default false)."),
    markdownSupport: z
      .boolean()
      .optional()
      .describe("Send replies as QQ markdown (msg_type 2); needs the markdown permission of the bot (default false: plain text)."),
  },
  rootOnly: {
    apiBase: z.url().optional().describe(`OpenAPI root (default ${QQBOT_ENDPOINTS.apiBase}; for proxies and tests).`),
    tokenUrl: z.url().optional().describe(`Access token endpoint (default ${QQBOT_ENDPOINTS.tokenUrl}; for proxies and tests).`),
  },
});

/** Capabilities of a C2C chat; groups, guild channels and guild DMs narrow them (`chatCapabilities`). */
export const QQBOT_CAPABILITIES = {
  chatTypes: ["direct", "group", "channel"],
  edit: false,
  delete: false,
  media: true,
  reactions: false,
  threads: false,
  typing: true,
  textLimit: QQBOT_TEXT_LIMIT,
  minEditIntervalMs: QQBOT_STREAM_INTERVAL_MS,
  nativeStream: "replace",
  sendRate: { perChat: 5, perChatBurst: 5, global: 20 },
  replyQuota: { perInbound: QQBOT_PASSIVE_REPLIES, windowMs: QQBOT_REPLY_WINDOW_MS.direct },
} as const satisfies ChannelCapabilities;

/**
 * What one chat can do: C2C chats stream and show typing; group, guild channel and guild DM chats
 * have neither (and a group's passive replies expire after 5 minutes).
 */
export function chatCapabilities(kind: ChatKind, id: string): Partial<ChannelCapabilities> {
  if (kind === "direct" && !id.startsWith("dms:")) return {};
  return {
    nativeStream: undefined,
    typing: false,
    ...(kind === "group" ? { replyQuota: { perInbound: QQBOT_PASSIVE_REPLIES, windowMs: QQBOT_REPLY_WINDOW_MS.group } } : {}),
  };
}

/** OpenIDs are 32 hexadecimal characters, written upper-case by the platform. */
const OPENID = /^[0-9A-F]{32}$/;

/**
 * Chat ids: a user's or group's openid, `channel:<channel_id>` for a guild channel, `dms:<guild_id>`
 * for a guild DM. The kind of a bare openid cannot be told from its spelling.
 */
function qqChatKindOf(id: string): ChatKind | undefined {
  if (id.startsWith("channel:")) return "channel";
  if (id.startsWith("dms:")) return "direct";
  return undefined;
}

/** OpenIDs are compared upper-case (the platform sends them so; people paste them in any case). */
const upper = (id: string): string => id.toUpperCase();

/** Which sender ids a QQ user can have: an openid (32 hex characters) or a guild user id (digits). */
function checkQQSender(id: string): SenderIdProblem | undefined {
  if (OPENID.test(id.toUpperCase()) || /^\d+$/.test(id)) return undefined;
  return {
    message: `${JSON.stringify(id)} is not a QQ user openid (32 hexadecimal characters, e.g. "E4A0C3F1…").`,
    fix: "ask the user to message the bot and run `openclaw pairing list` (it shows their openid), and write that id.",
  };
}

/** Everything validation, doctor and the delivery planner need to know about `channels.qqbot`. */
export const qqbotChannelConfig = defineChannelConfig({
  id: "qqbot",
  label: "QQ Bot",
  packageName: "@openclaw/qqbot",
  schema: qqbotConfigSchema,
  capabilities: QQBOT_CAPABILITIES,
  delivery: {
    previewModes: ["partial"],
    defaultMode: "partial",
    blockReplies: "unless-off",
    nativeStream: { mode: "partial", flag: "nativeTransport", overBlocks: true },
  },
  ids: {
    prefixes: ["qq"],
    sender: upper,
    chat: (id) => (OPENID.test(id.toUpperCase()) ? id.toUpperCase() : id),
    chatKindOf: qqChatKindOf,
    checkSender: checkQQSender,
  },
  migrations: [
    {
      kind: "streaming-aliases",
      modes: ["partial", "off"],
      trueExtras: { nativeTransport: true },
      flatKeys: [],
      nestedRenames: [{ from: "c2cStreamApi", to: "nativeTransport", expect: "boolean" }],
    },
    // The reference's QQ Bot reads dmPolicy "open" as "allowlist when allowFrom has entries, else open".
    { kind: "open-means-allowlist-with-entries" },
  ],
});

export default qqbotChannelConfig;
