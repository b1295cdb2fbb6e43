/**
 * The config of `channels.whatsapp`: schema, doctor rules for the retired flat streaming keys,
 * capabilities, delivery policy and id rules. This is the plugin's light `configEntry`: it imports
 * the SDK's config entry point and zod only (never Baileys), so validation and `openclaw doctor`
 * can load it without the platform library.
 */
import type { ChannelCapabilities, ChatKind } from "@openclaw/plugin-sdk";
import {
  channelConfigSchema,
  defineChannelConfig,
  deliveryOnlyStreamingSchema,
  groupSettingsShape,
  type SenderIdProblem,
} from "@openclaw/plugin-sdk/config";
import { z } from "zod";

/** The longest text WhatsApp shows well in one message; replies are split there (default `textChunkLimit`). */
export const WHATSAPP_TEXT_LIMIT = 4000;

/** Default cap on a file sent or fetched, in megabytes (`mediaMaxMb`). */
export const WHATSAPP_MEDIA_MAX_MB = 50;

const whatsappGroupSchema = z.strictObject({ ...groupSettingsShape });

/** Zod schema of `channels.whatsapp` (root keys, `accounts.<id>` overrides, nested `streaming`). */
export const whatsappConfigSchema = channelConfigSchema({
  description: "WhatsApp (a linked device on WhatsApp Web's protocol, through Baileys; link it with `openclaw channels login whatsapp`).",
  textChunkLimit: WHATSAPP_TEXT_LIMIT,
  groupSettings: whatsappGroupSchema,
  streaming: deliveryOnlyStreamingSchema(),
  shared: {
    selfChatMode: z
      .boolean()
      .optional()
      .describe(
        'Answer messages you send to yourself ("Message yourself" chat) on the linked number (default false: the bot ignores every message the linked number sends).',
      ),
    sendReadReceipts: z
      .boolean()
      .optional()
      .describe("Mark messages the bot takes as read (blue ticks) (default true; never in your self-chat)."),
    replyToMode: z
      .enum(["off", "first", "all", "batched"])
      .optional()
      .describe('Quote the user\'s message in replies: "off" (default), "first", "all", "batched".'),
    mediaMaxMb: z
      .number()
      .positive()
      .optional()
      .describe(`Largest file the bot downloads or sends, in megabytes (default ${WHATSAPP_MEDIA_MAX_MB}).`),
  },
});

/**
 * What WhatsApp can do: no edits (so no live preview), no native stream. The send rate is kept
 * low on purpose: a linked personal number that sends fast risks a ban.
 */
export const WHATSAPP_CAPABILITIES = {
  chatTypes: ["direct", "group"],
  edit: false,
  delete: false,
  media: true,
  reactions: false,
  threads: false,
  typing: true,
  textLimit: WHATSAPP_TEXT_LIMIT,
  sendRate: { perChat: 1, perChatBurst: 3, global: 5, globalBurst: 10 },
} as const satisfies ChannelCapabilities;

/** Group JIDs end in `@g.us`; a DM peer is an E.164 number. */
function whatsappChatKindOf(id: string): ChatKind | undefined {
  if (id.endsWith("@g.us")) return "group";
  if (/^\+\d{6,15}$/.test(id)) return "direct";
  return undefined;
}

/**
 * A phone number or user JID in E.164 (`+15551234567`): `15551234567@s.whatsapp.net`,
 * `+1 (555) 123-4567` and `15551234567` all become `+15551234567`. Anything else (a group JID,
 * `"*"`) comes back trimmed and lowercased.
 */
export function toE164(id: string): string {
  const trimmed = id.trim();
  const user = /^\+?(\d+)(?::\d+)?@(s\.whatsapp\.net|c\.us)$/i.exec(trimmed);
  if (user) return `+${user[1]}`;
  if (/^\+?[\d\s().-]+$/.test(trimmed) && /\d/.test(trimmed)) return `+${trimmed.replace(/\D/g, "")}`;
  return trimmed.toLowerCase();
}

const FIND_NUMBER =
  'write the number in international form with its country code, e.g. "+15551234567" (or ask the person to message the bot and run `openclaw pairing list`).';

/** Which sender ids a WhatsApp user can have: a phone number in E.164 (country code first). */
function checkWhatsAppSender(id: string): SenderIdProblem | undefined {
  const e164 = toE164(id);
  if (/^\+[1-9]\d{6,14}$/.test(e164) && (id.trim().startsWith("+") || id.includes("@"))) return undefined;
  if (/^\+?\d[\d\s().-]*$/.test(id.trim())) {
    return {
      message: `${JSON.stringify(id)} has no country code; WhatsApp allows senders by phone number in E.164 form.`,
      fix: FIND_NUMBER,
    };
  }
  if (id.endsWith("@g.us")) {
    return {
      message: `${JSON.stringify(id)} is a group JID, not a person.`,
      fix: `list the group under groups (${JSON.stringify(id)}: { … }) and its members' numbers in groupAllowFrom.`,
    };
  }
  return { message: `${JSON.stringify(id)} is not a phone number; WhatsApp allows senders by number in E.164 form.`, fix: FIND_NUMBER };
}

/** Everything validation, doctor and the delivery planner need to know about `channels.whatsapp`. */
export const whatsappChannelConfig = defineChannelConfig({
  id: "whatsapp",
  label: "WhatsApp",
  packageName: "@openclaw/whatsapp",
  schema: whatsappConfigSchema,
  capabilities: WHATSAPP_CAPABILITIES,
  // WhatsApp cannot edit: no preview; block replies only with an explicit streaming.block.enabled.
  delivery: { previewModes: [], defaultMode: null, blockReplies: "explicit" },
  ids: {
    prefixes: ["wa"],
    sender: toE164,
    chat: (id) => (id.includes("@") && !id.endsWith("@g.us") ? toE164(id) : id.toLowerCase()),
    chatKindOf: whatsappChatKindOf,
    checkSender: checkWhatsAppSender,
  },
  // The flat chunkMode / blockStreaming / blockStreamingCoalesce keys move under `streaming`;
  // WhatsApp has no preview mode, so the mode keys (streamMode, scalar streaming) are dropped.
  migrations: [{ kind: "streaming-aliases" }],
});

export default whatsappChannelConfig;
