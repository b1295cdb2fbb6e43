/**
 * A Matrix room message -> `InboundMessage`: text (without the reply fallback or a leading address
 * to the bot), media, mentions, threads (`m.thread`) and replies (`m.in_reply_to`). Pure: the
 * session gathers what it needs from the SDK (DM or room, the bot's own events) and passes it in.
 */
import type { InboundMedia, InboundMessage } from "@openclaw/plugin-sdk";
import { type MentionTarget, mentionsBot, stripLeadingMention } from "./mentions.js";

/** The parts of a Matrix event this module reads (a plain object, as on the wire). */
export interface RawRoomEvent {
  event_id: string;
  room_id: string;
  sender: string;
  type: string;
  origin_server_ts: number;
  content: Record<string, unknown>;
}

/** What the session knows about the room and the bot when it normalizes an event. */
export interface NormalizeContext {
  channel: string;
  accountId: string;
  bot: MentionTarget;
  /** The room is a DM (m.direct, or two members with is_direct). */
  isDirect: boolean;
  roomName?: string;
  senderName?: string;
  /** The sender is another bot (botUserIds). */
  senderIsBot: boolean;
  /** Whether an event id is a message the bot sent (for replies to the bot). */
  sentByBot(eventId: string): boolean;
  /** `threadReplies` of the account. */
  threadReplies: "off" | "inbound" | "always";
}

const MEDIA_KINDS: Record<string, InboundMedia["kind"]> = {
  "m.image": "image",
  "m.file": "document",
  "m.audio": "audio",
  "m.video": "video",
};

/** A legacy reply fallback: leading `> ` lines and the blank line after them. */
export function stripReplyFallback(body: string): string {
  const lines = body.split("\n");
  let i = 0;
  while (i < lines.length && lines[i]!.startsWith(">")) i++;
  if (i === 0) return body;
  if (i < lines.length && lines[i]!.trim() === "") i++;
  return lines.slice(i).join("\n");
}

function mediaOf(content: Record<string, unknown>): InboundMedia | undefined {
  const msgtype = typeof content.msgtype === "string" ? content.msgtype : "";
  let kind = MEDIA_KINDS[msgtype];
  if (!kind && msgtype === "m.sticker") kind = "sticker";
  if (!kind) return undefined;
  const info = (content.info ?? {}) as { mimetype?: unknown; size?: unknown };
  const file = content.file as { url?: unknown } | undefined;
  const url = typeof content.url === "string" ? content.url : typeof file?.url === "string" ? file.url : undefined;
  if (url === undefined) return undefined;
  if (kind === "audio" && (content["org.matrix.msc3245.voice"] !== undefined || content["m.voice"] !== undefined)) kind = "voice";
  const media: InboundMedia = { kind, fileId: url };
  if (typeof info.mimetype === "string") media.mimeType = info.mimetype;
  if (typeof info.size === "number") media.size = info.size;
  const name = typeof content.filename === "string" ? content.filename : typeof content.body === "string" ? content.body : undefined;
  if (name) media.fileName = name;
  return media;
}

/** The thread an event belongs to (its root event id), when it is in one. */
export function threadRootOf(content: Record<string, unknown>): string | undefined {
  const relates = content["m.relates_to"] as { rel_type?: unknown; event_id?: unknown } | undefined;
  return relates?.rel_type === "m.thread" && typeof relates.event_id === "string" ? relates.event_id : undefined;
}

/** The event a message replies to (not the thread fallback), when it replies to one. */
export function replyTargetOf(content: Record<string, unknown>): string | undefined {
  const relates = content["m.relates_to"] as { is_falling_back?: unknown; "m.in_reply_to"?: { event_id?: unknown } } | undefined;
  if (relates?.is_falling_back === true) return undefined;
  const id = relates?.["m.in_reply_to"]?.event_id;
  return typeof id === "string" ? id : undefined;
}

const nonEmptyString = (value: unknown): value is string => typeof value === "string" && value !== "";

/**
 * The `InboundMessage` of a room message, or undefined for events that are not new messages
 * (edits, redactions, notices of other bots, state, messages without text or media) and for
 * malformed ones (no event id, room or well-formed sender). A missing or bad `origin_server_ts`
 * becomes the time it was read.
 */
export function normalizeRoomMessage(event: RawRoomEvent, ctx: NormalizeContext): InboundMessage | undefined {
  if (event.type !== "m.room.message" && event.type !== "m.sticker") return undefined;
  if (!nonEmptyString(event.event_id) || !nonEmptyString(event.room_id)) return undefined;
  if (typeof event.sender !== "string" || !/^@[^:\s]+:\S+$/.test(event.sender)) return undefined;
  const content = event.content;
  if (typeof content !== "object" || content === null) return undefined;
  const relates = content["m.relates_to"] as { rel_type?: unknown } | undefined;
  if (relates?.rel_type === "m.replace") return undefined;
  const msgtype = event.type === "m.sticker" ? "m.sticker" : content.msgtype;
  if (typeof msgtype !== "string") return undefined;
  const media = mediaOf(event.type === "m.sticker" ? { ...content, msgtype: "m.sticker" } : content);
  const rawBody = typeof content.body === "string" ? content.body : "";
  const replyTo = replyTargetOf(content);
  let text = media ? (typeof content.filename === "string" && content.filename !== rawBody ? rawBody : "") : rawBody;
  if (replyTo) text = stripReplyFallback(text);
  if (!media && msgtype !== "m.text" && msgtype !== "m.notice" && msgtype !== "m.emote") return undefined;
  if (msgtype === "m.emote") text = `* ${text}`;
  const fromBot = replyTo !== undefined && ctx.sentByBot(replyTo);
  const mentioned = !ctx.isDirect && (mentionsBot(content, ctx.bot) || fromBot);
  if (mentioned) text = stripLeadingMention(text, ctx.bot);
  if (text.trim() === "" && !media) return undefined;
  let threadId = threadRootOf(content);
  if (threadId === undefined && ctx.threadReplies === "always" && !ctx.isDirect) threadId = event.event_id;
  if (ctx.threadReplies === "off") threadId = undefined;
  const message: InboundMessage = {
    channel: ctx.channel,
    accountId: ctx.accountId,
    messageId: event.event_id,
    chat: {
      kind: ctx.isDirect ? "direct" : "group",
      id: event.room_id,
      ...(threadId !== undefined ? { threadId, threadKind: "thread" as const } : {}),
      ...(ctx.roomName !== undefined ? { title: ctx.roomName } : {}),
    },
    sender: {
      id: event.sender,
      username: event.sender,
      ...(ctx.senderName !== undefined ? { name: ctx.senderName } : {}),
      ...(ctx.senderIsBot ? { isBot: true } : {}),
    },
    text,
    mentionsBot: ctx.isDirect || mentioned,
    receivedAt: Number.isFinite(event.origin_server_ts) && event.origin_server_ts > 0 ? event.origin_server_ts : Date.now(),
  };
  if (media) message.media = [media];
  if (replyTo !== undefined) message.replyTo = { messageId: replyTo, fromBot };
  return message;
}
