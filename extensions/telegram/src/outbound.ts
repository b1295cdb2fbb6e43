/**
 * The sending side of a Telegram account: text (Markdown rendered as Telegram HTML, with a
 * plain-text resend when Telegram refuses the markup), edits, deletes, typing and files. Every
 * call goes through the grammY transformer in `api.ts`, which speaks the SDK's error contract.
 */
import { statSync } from "node:fs";
import { basename } from "node:path";
import {
  PermanentSendError,
  SplitSendTracker,
  type ChannelOutbound,
  type OutboundMedia,
  type OutboundTarget,
  type PluginLogger,
  type SendOptions,
  type SentMessage,
} from "@openclaw/plugin-sdk";
import { InputFile, type Api } from "./grammy.js";
import type { TelegramAccount } from "./account.js";
import { createSendingApi, grammySignal, isEntityParseError, type GrammySignal } from "./api.js";
import { htmlToPlain, splitTelegramHtml, visibleLength } from "./format/html-chunks.js";
import { markdownToTelegramHtml } from "./format/markdown.js";

/** Telegram's limit on the visible text of one message. */
export const TELEGRAM_MESSAGE_LIMIT = 4096;
/** Telegram's limit on a media caption. */
export const TELEGRAM_CAPTION_LIMIT = 1024;
/** The General topic of a forum: sends omit its thread id, typing keeps it. */
const GENERAL_TOPIC = "1";

/** A chat id as the Bot API wants it: a number for numeric ids, else the `@channel` string. */
export function toChatId(id: string): number | string {
  return /^-?\d+$/.test(id) ? Number(id) : id;
}

function threadOf(target: OutboundTarget, forTyping: boolean): number | undefined {
  const thread = target.chat.threadId;
  if (thread === undefined || !/^\d+$/.test(thread)) return undefined;
  if (thread === GENERAL_TOPIC && !forTyping) return undefined;
  return Number(thread);
}

interface Rendered {
  /** Chunks to send, each within Telegram's limit. */
  parts: string[];
  /** `"HTML"` for rendered Markdown; undefined for plain text. */
  parseMode: "HTML" | undefined;
}

function render(text: string, format: SendOptions["format"], limit: number): Rendered {
  if (format === "markdown") {
    const html = markdownToTelegramHtml(text);
    if (htmlToPlain(html).trim() !== "") return { parts: splitTelegramHtml(html, limit), parseMode: "HTML" };
  }
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += limit) parts.push(text.slice(i, i + limit));
  return { parts: parts.length > 0 ? parts : [text], parseMode: undefined };
}

/** Options of `createTelegramOutbound`. */
export interface TelegramOutboundOptions {
  log: PluginLogger;
  /** Fires when the gateway has given up on in-flight sends (shutdown deadline passed). */
  signal?: AbortSignal;
  /** Use this `Api` instead of building one (tests). */
  api?: Api;
}

/**
 * Builds the `ChannelOutbound` of an account.
 *
 * - `sendText`: Markdown is rendered as Telegram HTML (`format: "plain"` is sent as is); text
 *   over 4096 visible characters is split into balanced chunks sent in order, reported as
 *   `messageIds` (the last as `messageId`); when a chunk fails, the error carries the chunks that
 *   landed (`deliveredMessageIds`) and a retry with the same idempotency key sends only the rest.
 *   `replyToMessageId` quotes that message (sent even if it was deleted);
 *   `chat.threadId` sets `message_thread_id` (omitted for the General topic "1"); `silent` sends
 *   without a notification; `linkPreview: false` disables previews. When Telegram refuses the
 *   markup ("can't parse entities") the chunk is resent as plain text.
 * - `editText`: same rendering; the text must fit one message (else `PermanentSendError`).
 * - `deleteMessage`: a message that is already gone counts as deleted.
 * - `typing`: `sendChatAction typing` (keeps the General topic's thread id).
 * - `sendMedia`: images as photos, other files as documents/audio/video; a local path is
 *   uploaded, an http(s) URL is passed to Telegram as is. A caption longer than 1024 characters
 *   follows as its own message(s), reported in `messageIds` after the file (`messageId`).
 */
export function createTelegramOutbound(account: TelegramAccount, options: TelegramOutboundOptions): ChannelOutbound {
  const api = options.api ?? createSendingApi(account.token, { apiRoot: account.apiRoot, log: options.log });
  const shutdown = options.signal;
  const split = new SplitSendTracker();

  /** Finals and blocks are not cut mid-request by a run abort; previews and typing are. */
  const signalFor = (opts: SendOptions): GrammySignal | undefined => {
    const signals = [shutdown, opts.priority === "preview" || opts.priority === "typing" ? opts.signal : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    return grammySignal(signals.length === 0 ? undefined : signals.length === 1 ? signals[0] : AbortSignal.any(signals));
  };

  const common = (target: OutboundTarget, opts: SendOptions): Record<string, unknown> => {
    const params: Record<string, unknown> = {};
    const thread = threadOf(target, false);
    if (thread !== undefined) params.message_thread_id = thread;
    if (!account.linkPreview) params.link_preview_options = { is_disabled: true };
    if (opts.silent) params.disable_notification = true;
    return params;
  };

  async function sendOne(
    target: OutboundTarget,
    part: string,
    parseMode: Rendered["parseMode"],
    params: Record<string, unknown>,
    signal: GrammySignal | undefined,
  ): Promise<SentMessage> {
    const chatId = toChatId(target.chat.id);
    try {
      const sent = await api.sendMessage(chatId, part, { ...params, ...(parseMode ? { parse_mode: parseMode } : {}) }, signal);
      return { messageId: String(sent.message_id) };
    } catch (error) {
      if (!parseMode || !isEntityParseError(error)) throw error;
      options.log.warn("telegram refused the formatted text; sending it as plain text", { chat: target.chat.id });
      const sent = await api.sendMessage(chatId, htmlToPlain(part), params, signal);
      return { messageId: String(sent.message_id) };
    }
  }

  async function sendText(target: OutboundTarget, text: string, opts: SendOptions): Promise<SentMessage> {
    const { parts, parseMode } = render(text, opts.format, TELEGRAM_MESSAGE_LIMIT);
    const signal = signalFor(opts);
    return split.send(opts.idempotencyKey, parts.length, async (index) => {
      const params = common(target, opts);
      if (index === 0 && target.replyToMessageId !== undefined && /^\d+$/.test(target.replyToMessageId)) {
        params.reply_parameters = { message_id: Number(target.replyToMessageId), allow_sending_without_reply: true };
      }
      return (await sendOne(target, parts[index]!, parseMode, params, signal)).messageId;
    });
  }

  async function editText(target: OutboundTarget, messageId: string, text: string, opts: SendOptions): Promise<void> {
    const { parts, parseMode } = render(text, opts.format, TELEGRAM_MESSAGE_LIMIT);
    if (parts.length > 1) {
      throw new PermanentSendError(
        `Telegram editMessageText: the text has ${parseMode ? visibleLength(markdownToTelegramHtml(text)) : text.length} characters, more than the ${TELEGRAM_MESSAGE_LIMIT} one message can hold`,
        "too_long",
      );
    }
    const chatId = toChatId(target.chat.id);
    const id = Number(messageId);
    const params: Record<string, unknown> = account.linkPreview ? {} : { link_preview_options: { is_disabled: true } };
    const signal = signalFor(opts);
    const part = parts[0]!;
    try {
      await api.editMessageText(chatId, id, part, { ...params, ...(parseMode ? { parse_mode: parseMode } : {}) }, signal);
    } catch (error) {
      if (!parseMode || !isEntityParseError(error)) throw error;
      options.log.warn("telegram refused the formatted edit; editing as plain text", { chat: target.chat.id });
      await api.editMessageText(chatId, id, htmlToPlain(part), params, signal);
    }
  }

  async function deleteMessage(target: OutboundTarget, messageId: string, opts: SendOptions): Promise<void> {
    try {
      await api.deleteMessage(toChatId(target.chat.id), Number(messageId), signalFor(opts));
    } catch (error) {
      if (error instanceof PermanentSendError && /message to delete not found/i.test(error.message)) return;
      throw error;
    }
  }

  async function typing(target: OutboundTarget, opts: SendOptions): Promise<void> {
    const thread = threadOf(target, true);
    await api.sendChatAction(
      toChatId(target.chat.id),
      "typing",
      thread !== undefined ? { message_thread_id: thread } : {},
      signalFor(opts),
    );
  }

  async function sendMedia(target: OutboundTarget, media: OutboundMedia, opts: SendOptions): Promise<SentMessage> {
    const file = mediaInput(media);
    const params = common(target, opts);
    if (target.replyToMessageId !== undefined && /^\d+$/.test(target.replyToMessageId)) {
      params.reply_parameters = { message_id: Number(target.replyToMessageId), allow_sending_without_reply: true };
    }
    let caption: Rendered | undefined;
    let overflow: string | undefined;
    if (media.caption !== undefined && media.caption.trim() !== "") {
      caption = render(media.caption, opts.format, TELEGRAM_CAPTION_LIMIT);
      if (caption.parts.length > 1) {
        overflow = media.caption;
        caption = undefined;
      }
    }
    const signal = signalFor(opts);
    const chatId = toChatId(target.chat.id);
    const send = (withCaption: { caption?: string; parse_mode?: "HTML" }) => {
      const all = { ...params, ...withCaption };
      switch (media.kind) {
        case "image":
          return api.sendPhoto(chatId, file, all, signal);
        case "audio":
          return api.sendAudio(chatId, file, all, signal);
        case "video":
          return api.sendVideo(chatId, file, all, signal);
        default:
          return api.sendDocument(chatId, file, all, signal);
      }
    };
    const part = caption?.parts[0];
    const sendFile = async (): Promise<string> => {
      try {
        const sent = await send(
          part !== undefined ? { caption: part, ...(caption?.parseMode ? { parse_mode: caption.parseMode } : {}) } : {},
        );
        return String(sent.message_id);
      } catch (error) {
        if (part === undefined || !caption?.parseMode || !isEntityParseError(error)) throw error;
        return String((await send({ caption: htmlToPlain(part) })).message_id);
      }
    };
    // The file, then the caption that did not fit (tracked, so a retry does not upload the file twice).
    let captionIds: string[] = [];
    const sent = await split.send(opts.idempotencyKey, overflow === undefined ? 1 : 2, async (index) => {
      if (index === 0) return sendFile();
      const rest = await sendText({ chat: target.chat }, overflow!, { ...opts, idempotencyKey: `${opts.idempotencyKey}:caption` });
      captionIds = rest.messageIds ?? [rest.messageId];
      return rest.messageId;
    });
    if (overflow === undefined) return sent;
    const fileId = sent.messageIds![0]!;
    return { messageId: fileId, messageIds: [fileId, ...captionIds] };
  }

  return { sendText, editText, deleteMessage, typing, sendMedia };
}

/** A URL is passed through; a local path must be a readable file and is uploaded. */
function mediaInput(media: OutboundMedia): string | InputFile {
  if (/^https?:\/\//i.test(media.source)) return media.source;
  let isFile = false;
  try {
    isFile = statSync(media.source).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) throw new PermanentSendError(`cannot send ${media.source}: no such file`, "file_not_found");
  return new InputFile(media.source, media.fileName ?? basename(media.source));
}
