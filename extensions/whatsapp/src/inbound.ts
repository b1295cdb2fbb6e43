/**
 * Baileys `WAMessage` -> `InboundMessage`: text, extended text, captions, quoted replies and media
 * (placeholders whose file the session fetches on demand). DMs are keyed by the peer's number in
 * E.164 (a LID is mapped to its number when WhatsApp shared the mapping), groups by their JID.
 * Status broadcasts, newsletters and the linked number's own messages yield undefined (except its
 * self-chat with `selfChatMode`); so does anything malformed.
 */
import type { InboundMedia, InboundMessage } from "@openclaw/plugin-sdk";
import type { proto, WAMessage } from "baileys";
import {
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  jidDecode,
  jidNormalizedUser,
  normalizeMessageContent,
} from "./baileys.js";

/** Who the linked account is, and what it sent, for telling own messages and mentions apart. */
export interface InboundContext {
  channel: string;
  accountId: string;
  /** The linked account's user JID without device (`15550001111@s.whatsapp.net`). */
  ownJid: string | undefined;
  /** The linked account's LID, when known (`1234@lid`). */
  ownLid: string | undefined;
  selfChatMode: boolean;
  /** Ids of messages the bot sent (never answered, even in self-chat). */
  sentByBot(id: string): boolean;
  /** The phone number JID of a LID, when WhatsApp shared it. */
  numberOfLid(lid: string): string | undefined;
  now: number;
}

/** Why a message was not handed on (for debug logs). */
export type SkipReason = "malformed" | "broadcast" | "newsletter" | "own" | "empty" | "protocol";

/** `15551234567@s.whatsapp.net` -> `+15551234567`; a LID maps through `numberOfLid` or stays a JID. */
export function senderIdOf(jid: string, numberOfLid: (lid: string) => string | undefined): string {
  const normalized = jidNormalizedUser(jid);
  const mapped = isLidUser(normalized) ? (numberOfLid(normalized) ?? normalized) : normalized;
  const decoded = jidDecode(mapped);
  if (decoded?.server === "s.whatsapp.net" || decoded?.server === "c.us") return `+${decoded.user}`;
  return mapped;
}

const MEDIA_KINDS: Array<[keyof proto.IMessage, InboundMedia["kind"]]> = [
  ["imageMessage", "image"],
  ["videoMessage", "video"],
  ["audioMessage", "audio"],
  ["documentMessage", "document"],
  ["stickerMessage", "sticker"],
];

interface MediaFields {
  caption?: string | null;
  mimetype?: string | null;
  fileName?: string | null;
  fileLength?: number | { toNumber(): number } | null;
  ptt?: boolean | null;
  contextInfo?: proto.IContextInfo | null;
}

function sizeOf(length: MediaFields["fileLength"]): number | undefined {
  if (typeof length === "number") return length;
  if (length && typeof length.toNumber === "function") return length.toNumber();
  return undefined;
}

/** Text, media and context of a message's content. */
function contentOf(
  message: proto.IMessage,
  id: string,
): { text: string; media?: InboundMedia; context?: proto.IContextInfo | null } | undefined {
  if (typeof message.conversation === "string") return { text: message.conversation };
  const ext = message.extendedTextMessage;
  if (ext) return { text: ext.text ?? "", context: ext.contextInfo };
  for (const [field, kind] of MEDIA_KINDS) {
    const m = message[field] as MediaFields | null | undefined;
    if (!m) continue;
    const media: InboundMedia = { kind: kind === "audio" && m.ptt ? "voice" : kind, fileId: id };
    if (m.mimetype) media.mimeType = m.mimetype;
    if (m.fileName) media.fileName = m.fileName;
    const size = sizeOf(m.fileLength);
    if (size !== undefined) media.size = size;
    return { text: m.caption ?? "", media, context: m.contextInfo };
  }
  return undefined;
}

/** The text of a quoted message, if it has one. */
function quotedText(quoted: proto.IMessage | null | undefined): string | undefined {
  if (!quoted) return undefined;
  const content = contentOf(normalizeMessageContent(quoted) ?? quoted, "");
  return content?.text || undefined;
}

const sameUser = (a: string | null | undefined, b: string | undefined): boolean =>
  a != null && b !== undefined && jidNormalizedUser(a) === jidNormalizedUser(b);

/** The `InboundMessage` of one upserted message, or why it is skipped. */
export function normalizeMessage(raw: WAMessage, ctx: InboundContext): InboundMessage | SkipReason {
  const key = raw?.key;
  const id = key?.id;
  const remoteJid = key?.remoteJid;
  if (typeof id !== "string" || id === "" || typeof remoteJid !== "string" || remoteJid === "") return "malformed";
  if (isJidBroadcast(remoteJid)) return "broadcast";
  if (isJidNewsletter(remoteJid)) return "newsletter";
  const group = isJidGroup(remoteJid) === true;
  if (key.fromMe) {
    const selfChat = !group && (sameUser(remoteJid, ctx.ownJid) || sameUser(remoteJid, ctx.ownLid));
    if (!ctx.selfChatMode || !selfChat || ctx.sentByBot(id)) return "own";
  }
  const message = normalizeMessageContent(raw.message);
  if (!message) return "empty";
  if (message.protocolMessage || message.reactionMessage) return "protocol";
  const content = contentOf(message, id);
  if (content === undefined) return "empty";

  const senderJid = group ? key.participant : key.fromMe ? (ctx.ownJid ?? remoteJid) : remoteJid;
  if (typeof senderJid !== "string" || senderJid === "") return "malformed";
  const senderId = senderIdOf(senderJid, ctx.numberOfLid);
  const chatId = group ? remoteJid : senderIdOf(remoteJid, ctx.numberOfLid);

  const context = content.context;
  const mentioned = (context?.mentionedJid ?? []).some((jid) => sameUser(jid, ctx.ownJid) || sameUser(jid, ctx.ownLid));
  const replyToBot =
    typeof context?.stanzaId === "string" &&
    (ctx.sentByBot(context.stanzaId) || sameUser(context.participant, ctx.ownJid) || sameUser(context.participant, ctx.ownLid));
  const timestamp = Number(raw.messageTimestamp ?? 0);
  const inbound: InboundMessage = {
    channel: ctx.channel,
    accountId: ctx.accountId,
    messageId: id,
    chat: { kind: group ? "group" : "direct", id: chatId },
    sender: { id: senderId, ...(raw.pushName ? { name: raw.pushName } : {}) },
    text: content.text.trim(),
    mentionsBot: !group || mentioned || replyToBot,
    receivedAt: timestamp > 0 ? timestamp * 1000 : ctx.now,
  };
  if (content.media) inbound.media = [content.media];
  if (typeof context?.stanzaId === "string" && context.stanzaId !== "") {
    const text = quotedText(context.quotedMessage);
    inbound.replyTo = { messageId: context.stanzaId, fromBot: replyToBot, ...(text !== undefined ? { text } : {}) };
  }
  return inbound;
}
