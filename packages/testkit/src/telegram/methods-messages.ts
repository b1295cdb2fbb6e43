import { badRequest, optionalInt, optionalString } from "./errors.js";
import { editTarget, outgoingSkeleton, renderOrThrow, TEXT_LIMIT, type MethodContext, type MethodHandler } from "./method-context.js";
import { nowSeconds } from "./store.js";
import type { TgMessage } from "./types.js";

const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** sendMessage: text 1–4096 characters after entity parsing; HTML/MarkdownV2/Markdown checked. */
function sendMessage(ctx: MethodContext): TgMessage {
  const raw = optionalString(ctx.params, "text") ?? "";
  const parseMode = optionalString(ctx.params, "parse_mode");
  const rendered = renderOrThrow(raw, parseMode, ctx.params.entities);
  if (rendered.text.length === 0) throw badRequest("message text is empty");
  if (rendered.text.length > TEXT_LIMIT) throw badRequest("message is too long");
  const { message } = outgoingSkeleton(ctx);
  message.text = rendered.text;
  if (rendered.entities.length > 0) message.entities = rendered.entities;
  const preview = ctx.params.link_preview_options;
  if (preview && typeof preview === "object") message.link_preview_options = preview as Record<string, unknown>;
  ctx.store.addMessage(message, true, {
    text: rendered.text,
    entities: rendered.entities,
    rawText: raw,
    ...(parseMode ? { parseMode } : {}),
    method: "sendMessage",
    time: Date.now(),
  });
  return structuredClone(message);
}

/** editMessageText: "message is not modified" for identical content, MESSAGE_TOO_LONG past 4096. */
function editMessageText(ctx: MethodContext): TgMessage {
  const raw = optionalString(ctx.params, "text") ?? "";
  const parseMode = optionalString(ctx.params, "parse_mode");
  const rendered = renderOrThrow(raw, parseMode, ctx.params.entities);
  if (rendered.text.length === 0) throw badRequest("message text is empty");
  if (rendered.text.length > TEXT_LIMIT) throw badRequest("MESSAGE_TOO_LONG");
  const stored = editTarget(ctx);
  const current = stored.message;
  if (current.text === undefined) throw badRequest("there is no text in the message to edit");
  const markup = ctx.params.reply_markup;
  if (
    current.text === rendered.text &&
    sameJson(current.entities ?? [], rendered.entities) &&
    (markup === undefined || sameJson(markup, current.reply_markup))
  ) {
    throw badRequest(
      "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
  }
  current.text = rendered.text;
  if (rendered.entities.length > 0) current.entities = rendered.entities;
  else delete current.entities;
  if (markup !== undefined) current.reply_markup = markup;
  const preview = ctx.params.link_preview_options;
  if (preview && typeof preview === "object") current.link_preview_options = preview as Record<string, unknown>;
  current.edit_date = nowSeconds();
  stored.versions.push({
    text: rendered.text,
    entities: rendered.entities,
    rawText: raw,
    ...(parseMode ? { parseMode } : {}),
    method: "editMessageText",
    time: Date.now(),
  });
  return structuredClone(current);
}

/** editMessageReplyMarkup: replaces (or removes) the inline keyboard of a bot message. */
function editMessageReplyMarkup(ctx: MethodContext): TgMessage {
  const stored = editTarget(ctx);
  const markup = ctx.params.reply_markup;
  if (sameJson(markup, stored.message.reply_markup)) {
    throw badRequest(
      "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
  }
  if (markup === undefined) delete stored.message.reply_markup;
  else stored.message.reply_markup = markup;
  stored.message.edit_date = nowSeconds();
  return structuredClone(stored.message);
}

/** deleteMessage: any live message of the chat (the bot's or a user's); "message to delete not found" otherwise. */
function deleteMessage(ctx: MethodContext): true {
  const chat = ctx.store.resolveChat(ctx.params.chat_id, true);
  const messageId = optionalInt(ctx.params, "message_id");
  if (messageId === undefined) throw badRequest("message identifier is not specified");
  const stored = ctx.store.liveMessage(chat.id, messageId);
  if (!stored) throw badRequest("message to delete not found");
  stored.deleted = true;
  return true;
}

/** sendChatAction: the documented actions only; the General forum topic (1) is allowed here. */
function sendChatAction(ctx: MethodContext): true {
  const chat = ctx.store.resolveChat(ctx.params.chat_id, ctx.rejectUnknownChats);
  ctx.store.checkThread(chat, optionalInt(ctx.params, "message_thread_id"), true);
  const action = optionalString(ctx.params, "action");
  if (!action || !CHAT_ACTIONS.has(action)) throw badRequest("wrong parameter action in request");
  return true;
}

/** setMessageReaction: the target message must exist and `reaction` must be a list (the call record keeps it). */
function setMessageReaction(ctx: MethodContext): true {
  const chat = ctx.store.resolveChat(ctx.params.chat_id, true);
  const messageId = optionalInt(ctx.params, "message_id");
  const stored = messageId === undefined ? undefined : ctx.store.liveMessage(chat.id, messageId);
  if (!stored) throw badRequest("message to react not found");
  const reaction = ctx.params.reaction;
  if (reaction !== undefined && !Array.isArray(reaction)) throw badRequest("REACTION_INVALID");
  return true;
}

export const messageMethods: Record<string, MethodHandler> = {
  sendMessage,
  editMessageText,
  editMessageReplyMarkup,
  deleteMessage,
  sendChatAction,
  setMessageReaction,
};
