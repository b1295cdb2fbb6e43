/**
 * `im.message.receive_v1` events as normalized `InboundMessage`s: text, post (rich text), images
 * and files; @mentions resolved to names, and `mentionsBot` when the bot's open_id is among them.
 */
import type { InboundMedia, InboundMessage } from "@openclaw/plugin-sdk";

/** The event type this plugin answers. */
export const MESSAGE_EVENT = "im.message.receive_v1";

interface Mention {
  key?: string;
  id?: { open_id?: string };
  name?: string;
}

/** The parts of an `im.message.receive_v1` event body used here (the platform may send more). */
export interface MessageEvent {
  event_id?: string;
  sender?: { sender_id?: { open_id?: string }; sender_type?: string };
  message?: {
    message_id?: string;
    root_id?: string;
    parent_id?: string;
    thread_id?: string;
    create_time?: string;
    chat_id?: string;
    chat_type?: string;
    message_type?: string;
    content?: string;
    mentions?: Mention[];
  };
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

function parseJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The text of a post: its title, then each paragraph's elements joined (images listed apart). */
export function postText(content: Record<string, unknown>, media: InboundMedia[]): string {
  // A received post is `{title, content}`; a sent one may be keyed by locale (`zh_cn`, `en_us`).
  const body = Array.isArray(content.content)
    ? content
    : ((Object.values(content).find((v) => v !== null && typeof v === "object" && Array.isArray((v as { content?: unknown }).content)) ??
        {}) as Record<string, unknown>);
  const lines: string[] = [];
  if (str(body.title)) lines.push(String(body.title));
  for (const paragraph of Array.isArray(body.content) ? body.content : []) {
    if (!Array.isArray(paragraph)) continue;
    let line = "";
    for (const el of paragraph as Array<Record<string, unknown>>) {
      const tag = el?.tag;
      if (tag === "text" || tag === "md") line += String(el.text ?? "");
      else if (tag === "a") line += el.href ? `[${String(el.text ?? el.href)}](${String(el.href)})` : String(el.text ?? "");
      else if (tag === "at") line += `@${String(el.user_name ?? el.user_id ?? "")}`;
      else if (tag === "code_block") line += `\n\`\`\`${String(el.language ?? "").toLowerCase()}\n${String(el.text ?? "")}\n\`\`\`\n`;
      else if (tag === "img" && str(el.image_key)) media.push({ kind: "image", fileId: String(el.image_key) });
      else if (tag === "media" && str(el.file_key)) media.push({ kind: "video", fileId: String(el.file_key) });
      else if (tag === "emotion") line += `:${String(el.emoji_type ?? "")}:`;
    }
    lines.push(line);
  }
  return lines.join("\n").trim();
}

/** Replaces `@_user_1` placeholders with `@Name`; the bot's own mention is removed. */
function resolveMentions(text: string, mentions: Mention[], botOpenId: string | undefined): string {
  let out = text;
  for (const m of mentions) {
    if (!str(m.key)) continue;
    const isBot = botOpenId !== undefined && m.id?.open_id === botOpenId;
    out = out.split(m.key!).join(isBot ? "" : `@${m.name ?? m.id?.open_id ?? ""}`);
  }
  return out.replace(/[ \t]{2,}/g, " ").trim();
}

/**
 * The normalized message of an event, or undefined for anything the bot does not answer (an
 * app's or the bot's own message, an event without ids, a malformed body). Never throws.
 */
export function normalizeMessageEvent(
  event: MessageEvent,
  accountId: string,
  botOpenId: string | undefined,
  now: number,
): InboundMessage | undefined {
  const message = event?.message;
  const senderId = str(event?.sender?.sender_id?.open_id);
  if (message === undefined || message === null || typeof message !== "object") return undefined;
  const messageId = str(message.message_id);
  const chatId = str(message.chat_id);
  if (messageId === undefined || chatId === undefined || senderId === undefined) return undefined;
  if (event.sender?.sender_type !== undefined && event.sender.sender_type !== "user") return undefined;
  if (botOpenId !== undefined && senderId === botOpenId) return undefined;

  const content = parseJson(message.content);
  const mentions = Array.isArray(message.mentions) ? message.mentions : [];
  const media: InboundMedia[] = [];
  let text = "";
  switch (message.message_type) {
    case "text":
      text = String(content.text ?? "");
      break;
    case "post":
      text = postText(content, media);
      break;
    case "image":
      if (str(content.image_key)) media.push({ kind: "image", fileId: String(content.image_key) });
      break;
    case "file":
      if (str(content.file_key))
        media.push({
          kind: "document",
          fileId: String(content.file_key),
          ...(str(content.file_name) ? { fileName: String(content.file_name) } : {}),
        });
      break;
    case "audio":
      if (str(content.file_key)) media.push({ kind: "voice", fileId: String(content.file_key) });
      break;
    case "media":
      if (str(content.file_key)) media.push({ kind: "video", fileId: String(content.file_key) });
      break;
    case "sticker":
      if (str(content.file_key)) media.push({ kind: "sticker", fileId: String(content.file_key) });
      break;
    default:
      return undefined;
  }
  text = resolveMentions(text, mentions, botOpenId);
  const direct = message.chat_type === "p2p";
  const mentionsBot = direct || (botOpenId !== undefined && mentions.some((m) => m.id?.open_id === botOpenId));
  const threadId = str(message.thread_id);
  const created = Number(message.create_time);
  const parent = str(message.parent_id);
  return {
    channel: "feishu",
    accountId,
    messageId,
    chat: { kind: direct ? "direct" : "group", id: chatId, ...(threadId && !direct ? { threadId, threadKind: "thread" as const } : {}) },
    sender: { id: senderId, ...(mentions.length > 0 ? {} : {}) },
    text,
    ...(media.length > 0 ? { media } : {}),
    mentionsBot,
    ...(parent ? { replyTo: { messageId: parent, fromBot: false } } : {}),
    receivedAt: Number.isFinite(created) && created > 0 ? created : now,
  };
}
