/**
 * Gateway dispatch events -> `InboundMessage`: C2C messages, group @-messages (and plain group
 * messages, for groups that do not require a mention), guild channel @-messages and guild DMs,
 * with attachments. Anything malformed or of another type yields undefined.
 */
import type { InboundMedia, InboundMessage } from "@openclaw/plugin-sdk";
import { channelChatId, dmsChatId } from "./targets.js";

/** The dispatch types that carry a user message. */
export const MESSAGE_EVENTS = [
  "C2C_MESSAGE_CREATE",
  "GROUP_AT_MESSAGE_CREATE",
  "GROUP_MESSAGE_CREATE",
  "AT_MESSAGE_CREATE",
  "DIRECT_MESSAGE_CREATE",
] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined);

function mediaKind(contentType: string): InboundMedia["kind"] {
  if (contentType.startsWith("image/") || contentType === "image") return "image";
  if (contentType.startsWith("video/") || contentType === "video") return "video";
  if (contentType.startsWith("audio/") || contentType === "voice") return "voice";
  return "document";
}

function attachmentsOf(d: Obj): InboundMedia[] {
  const list = Array.isArray(d.attachments) ? d.attachments : [];
  const media: InboundMedia[] = [];
  for (const a of list) {
    if (!isObj(a)) continue;
    let url = str(a.url);
    if (url === undefined) continue;
    if (url.startsWith("//")) url = `https:${url}`;
    else if (!/^https?:\/\//i.test(url)) url = `https://${url}`;
    const contentType = str(a.content_type) ?? "";
    const item: InboundMedia = { kind: mediaKind(contentType), url };
    if (contentType.includes("/")) item.mimeType = contentType;
    const fileName = str(a.filename);
    if (fileName !== undefined) item.fileName = fileName;
    if (typeof a.size === "number") item.size = a.size;
    media.push(item);
  }
  return media;
}

/** Removes leading `<@botid>` / `<@!botid>` mention markup the platform puts before @-ed text. */
export function stripLeadingMentions(content: string): string {
  return content.replace(/^(\s*<@!?[^>\s]*>\s*)+/, "").trim();
}

function timestampOf(d: Obj, fallback: number): number {
  const t = str(d.timestamp);
  const ms = t !== undefined ? Date.parse(t) : Number.NaN;
  return Number.isFinite(ms) ? ms : fallback;
}

/**
 * The `InboundMessage` of a dispatch event, or undefined for an event that is not a user message
 * or lacks the fields one needs.
 */
export function normalizeEvent(type: string, d: unknown, accountId: string, now: number): InboundMessage | undefined {
  if (!isObj(d) || !isObj(d.author)) return undefined;
  const id = str(d.id);
  const content = typeof d.content === "string" ? d.content : "";
  if (id === undefined) return undefined;
  const author = d.author;
  const base = { channel: "qqbot", accountId, messageId: id, receivedAt: timestampOf(d, now) };
  const media = attachmentsOf(d);
  const withMedia = media.length > 0 ? { media } : {};
  switch (type) {
    case "C2C_MESSAGE_CREATE": {
      const openid = str(author.user_openid);
      if (openid === undefined) return undefined;
      return {
        ...base,
        chat: { kind: "direct", id: openid },
        sender: { id: openid.toUpperCase() },
        text: content.trim(),
        mentionsBot: true,
        ...withMedia,
      };
    }
    case "GROUP_AT_MESSAGE_CREATE":
    case "GROUP_MESSAGE_CREATE": {
      const group = str(d.group_openid);
      const member = str(author.member_openid);
      if (group === undefined || member === undefined) return undefined;
      const at = type === "GROUP_AT_MESSAGE_CREATE";
      return {
        ...base,
        chat: { kind: "group", id: group },
        sender: { id: member.toUpperCase(), ...(author.bot === true ? { isBot: true } : {}) },
        text: at ? stripLeadingMentions(content) : content.trim(),
        mentionsBot: at,
        ...withMedia,
      };
    }
    case "AT_MESSAGE_CREATE": {
      const channelId = str(d.channel_id);
      const userId = str(author.id);
      if (channelId === undefined || userId === undefined) return undefined;
      const name = str(author.username);
      return {
        ...base,
        chat: { kind: "channel", id: channelChatId(channelId) },
        sender: { id: userId, ...(name !== undefined ? { name } : {}), ...(author.bot === true ? { isBot: true } : {}) },
        text: stripLeadingMentions(content),
        mentionsBot: true,
        ...withMedia,
      };
    }
    case "DIRECT_MESSAGE_CREATE": {
      const guildId = str(d.guild_id);
      const userId = str(author.id);
      if (guildId === undefined || userId === undefined) return undefined;
      const name = str(author.username);
      return {
        ...base,
        chat: { kind: "direct", id: dmsChatId(guildId) },
        sender: { id: userId, ...(name !== undefined ? { name } : {}) },
        text: content.trim(),
        mentionsBot: true,
        ...withMedia,
      };
    }
    default:
      return undefined;
  }
}
