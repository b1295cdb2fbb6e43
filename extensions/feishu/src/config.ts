/**
 * The config of `channels.feishu`: schema, doctor rules for the retired flat streaming spellings,
 * capabilities, delivery policy and id rules. This is the plugin's light `configEntry`: it imports
 * the SDK's config entry point and zod only (not `@larksuiteoapi/node-sdk`), so validation and
 * `openclaw doctor` can load it without the platform library.
 */
import type { ChannelCapabilities, ChatKind } from "@openclaw/plugin-sdk";
import {
  channelConfigSchema,
  chunkModeSchema,
  defineChannelConfig,
  groupSettingsShape,
  type SenderIdProblem,
  streamingBlockSchema,
} from "@openclaw/plugin-sdk/config";
import { z } from "zod";

/** The Open Platform roots of `domain: "feishu"` (default) and `domain: "lark"`. */
export const FEISHU_DOMAINS = {
  feishu: "https://open.feishu.cn",
  lark: "https://open.larksuite.com",
} as const;

/** The default `textChunkLimit`: longest text of one message, in characters. */
export const FEISHU_TEXT_LIMIT = 4000;

/**
 * Feishu refuses a message or card whose serialized content passes 30 KB; text is split (and a
 * streaming card continues in a next card) well before, leaving room for the JSON around it.
 */
export const FEISHU_CONTENT_BYTES = 30 * 1024;

/** Shortest pause between two updates of a streaming card: about 6 a second at most. */
export const FEISHU_CARD_INTERVAL_MS = 160;

/** The default `webhookPath`. */
export const FEISHU_WEBHOOK_PATH = "/feishu/events";

/** `channels.feishu.streaming`: the CardKit streaming card by default, block replies only when asked. */
export const feishuStreamingSchema = z
  .strictObject({
    mode: z
      .enum(["off", "partial"])
      .optional()
      .describe(
        'How replies appear (default "partial"): "partial" streams the reply into one CardKit card that grows as it is written (a long reply continues in a next card); "off" sends the reply as post messages when it is ready.',
      ),
    chunkMode: chunkModeSchema.optional(),
    block: streamingBlockSchema.optional(),
  })
  .describe("How replies are streamed to Feishu (nested form; `streaming: true/false`, `blockStreaming`, `chunkMode` … are retired).");

const feishuGroupSchema = z.strictObject({
  ...groupSettingsShape,
  replyInThread: z
    .boolean()
    .optional()
    .describe("Answer in a thread under the user's message in this group (default: the channel's replyInThread)."),
});

const domainSchema = z
  .union([z.enum(["feishu", "lark"]), z.url()])
  .describe(
    'Which Open Platform to use (default "feishu"): "feishu" (open.feishu.cn), "lark" (open.larksuite.com), or a base URL (https; http only on a loopback address, for tests).',
  );

/** Zod schema of `channels.feishu` (root keys, `accounts.<id>` overrides, nested `streaming`). */
export const feishuConfigSchema = channelConfigSchema({
  description: "Feishu / Lark (the Open Platform's bot API: long connection or webhook, CardKit streaming cards).",
  textChunkLimit: FEISHU_TEXT_LIMIT,
  groupSettings: feishuGroupSchema,
  streaming: feishuStreamingSchema,
  shared: {
    appId: z.string().min(1).optional().describe("The app's App ID (cli_…) from the developer console (default account: FEISHU_APP_ID)."),
    appSecret: z.string().min(1).optional().describe("The app's App Secret (default account: FEISHU_APP_SECRET)."),
    domain: domainSchema.optional(),
    connectionMode: z
      .enum(["websocket", "webhook"])
      .optional()
      .describe(
        'How events arrive (default "websocket"): "websocket" is the long connection the bot opens itself (no public URL needed); "webhook" has Feishu POST events to webhookPath on the gateway\'s port.',
      ),
    webhookPath: z
      .string()
      .regex(/^\/[A-Za-z0-9._~\-/]*$/, 'webhookPath is a URL path such as "/feishu/events"')
      .optional()
      .describe(`Path on the gateway's port where webhook events arrive (default "${FEISHU_WEBHOOK_PATH}"; each account needs its own).`),
    verificationToken: z
      .string()
      .min(1)
      .optional()
      .describe("The Verification Token of the event subscription (required in webhook mode)."),
    encryptKey: z
      .string()
      .min(1)
      .optional()
      .describe("The Encrypt Key of the event subscription (required in webhook mode: it signs and encrypts every event)."),
    replyInThread: z
      .boolean()
      .optional()
      .describe("Answer group messages in a thread under the user's message (default false; topic groups always answer in the topic)."),
    typingIndicator: z
      .boolean()
      .optional()
      .describe('Show a "Typing" reaction on the user\'s message while the reply is written, removed when it is done (default true).'),
    mediaMaxMb: z.number().positive().optional().describe("Largest file downloaded from or uploaded to Feishu, in MB (default 30)."),
  },
});

/** Feishu's capabilities: a CardKit card streams the reply; the whole text in every update. */
export const FEISHU_CAPABILITIES = {
  chatTypes: ["direct", "group"],
  edit: true,
  delete: true,
  media: true,
  reactions: true,
  threads: true,
  typing: true,
  typingPersists: true,
  textLimit: FEISHU_TEXT_LIMIT,
  minEditIntervalMs: FEISHU_CARD_INTERVAL_MS,
  nativeStream: "replace",
  // The card stream continues into a next card near 30 KB by itself.
  nativeStreamLimit: Number.POSITIVE_INFINITY,
  sendRate: { perChat: 5, perChatBurst: 5, global: 50, globalBurst: 50 },
} as const satisfies ChannelCapabilities;

/** Chat ids: `oc_…` is a chat (group or p2p), `ou_…` a user's open_id (a DM target). */
function feishuChatKindOf(id: string): ChatKind | undefined {
  if (id.startsWith("ou_")) return "direct";
  return undefined;
}

/** Which sender ids a Feishu user can have: an open_id (`ou_…`). */
function checkFeishuSender(id: string): SenderIdProblem | undefined {
  if (/^ou_[0-9a-z]+$/i.test(id)) return undefined;
  return {
    message: `${JSON.stringify(id)} is not a Feishu open_id (they start with "ou_").`,
    fix: "ask the user to message the bot and run `openclaw pairing list` (it shows their open_id), and write that id.",
  };
}

/** Everything validation, doctor and the delivery planner need to know about `channels.feishu`. */
export const feishuChannelConfig = defineChannelConfig({
  id: "feishu",
  label: "Feishu / Lark",
  packageName: "@openclaw/feishu",
  schema: feishuConfigSchema.superRefine((value, ctx) => {
    const entries: Array<[(string | number)[], Record<string, unknown>]> = [[[], value as Record<string, unknown>]];
    for (const [id, acc] of Object.entries((value.accounts ?? {}) as Record<string, Record<string, unknown>>))
      entries.push([["accounts", id], acc]);
    const root = value as Record<string, unknown>;
    for (const [path, entry] of entries) {
      const mode = entry.connectionMode ?? root.connectionMode;
      if (mode !== "webhook") continue;
      for (const key of ["verificationToken", "encryptKey"]) {
        if (entry[key] === undefined && root[key] === undefined) {
          ctx.addIssue({
            code: "custom",
            path: [...path, key],
            message: `connectionMode "webhook" requires ${key}: copy it from the app's Events & Callbacks > Encryption Strategy page of the developer console`,
          });
        }
      }
    }
  }),
  capabilities: FEISHU_CAPABILITIES,
  delivery: {
    previewModes: ["partial"],
    defaultMode: "partial",
    blockReplies: "explicit",
    nativeStream: { mode: "partial", overBlocks: false },
  },
  ids: {
    prefixes: ["lark"],
    chatKindOf: feishuChatKindOf,
    checkSender: checkFeishuSender,
  },
  migrations: [
    {
      kind: "streaming-aliases",
      modes: ["off", "partial"],
      // The reference accepted these Feishu-only coalesce fields and never read them.
      droppedKeys: [
        ["block", "coalesce", "enabled"],
        ["block", "coalesce", "minDelayMs"],
        ["block", "coalesce", "maxDelayMs"],
      ],
    },
  ],
});

export default feishuChannelConfig;
