import { autoEntities } from "./entities.js";
import { guessMimeType } from "./methods-media.js";
import { asReplyTarget, nowSeconds, type TelegramStore } from "./store.js";
import type { FakeUserFile, FakeUserMessage, TgChat, TgMessage } from "./types.js";

function toBuffer(data: Uint8Array | string): Buffer {
  return typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
}

function attach(store: TelegramStore, message: TgMessage, kind: "photo" | "document", file: FakeUserFile): void {
  const fileName = file.fileName ?? (kind === "photo" ? "photo.jpg" : "file.bin");
  const mimeType = file.mimeType ?? (kind === "photo" ? "image/jpeg" : guessMimeType(fileName));
  const stored = store.addFile(toBuffer(file.data), fileName, mimeType, kind === "photo" ? "photos" : "documents");
  const base = { file_id: stored.file_id, file_unique_id: stored.file_unique_id, file_size: stored.data.length };
  if (kind === "photo") message.photo = [{ ...base, width: file.width ?? 800, height: file.height ?? 600 }];
  else message.document = { ...base, file_name: fileName, mime_type: mimeType };
}

/**
 * Builds the Message a user's send produces and stores it (so the bot can reply to it, delete it
 * or react to it). The chat is recorded too. Text becomes a caption when media is attached.
 */
export function buildUserMessage(store: TelegramStore, input: FakeUserMessage): TgMessage {
  const from = {
    id: input.from.id,
    is_bot: false,
    first_name: input.from.first_name,
    ...stripUndefined({ last_name: input.from.last_name, username: input.from.username, language_code: input.from.language_code }),
  };
  const chatInput: TgChat = { id: input.chat.id, type: input.chat.type };
  if (input.chat.type === "private") {
    chatInput.first_name = input.from.first_name;
    if (input.from.username) chatInput.username = input.from.username;
  }
  Object.assign(chatInput, stripUndefined({ title: input.chat.title, username: input.chat.username, is_forum: input.chat.is_forum }));
  const chat = store.upsertChat(chatInput);

  const message: TgMessage = { message_id: store.takeMessageId(), from, chat: { ...chat }, date: input.date ?? nowSeconds() };
  if (input.message_thread_id !== undefined) {
    message.message_thread_id = input.message_thread_id;
    if (chat.is_forum) message.is_topic_message = true;
    store.noteThread(chat.id, input.message_thread_id);
  }
  if (input.reply_to_message !== undefined) {
    const target =
      typeof input.reply_to_message === "number" ? store.messages.get(input.reply_to_message)?.message : input.reply_to_message;
    if (!target) throw new Error(`sendUserMessage: reply_to_message ${String(input.reply_to_message)} is not a message the fake knows`);
    message.reply_to_message = asReplyTarget(target);
  }
  const hasMedia = input.photo !== undefined || input.document !== undefined;
  if (input.photo) attach(store, message, "photo", input.photo);
  if (input.document) attach(store, message, "document", input.document);
  const text = input.text ?? "";
  if (!hasMedia && text === "") throw new Error("sendUserMessage: give text, a photo or a document");
  if (text !== "") {
    const entities = input.entities ?? autoEntities(text);
    if (hasMedia) {
      message.caption = text;
      if (entities.length > 0) message.caption_entities = entities;
    } else {
      message.text = text;
      if (entities.length > 0) message.entities = entities;
    }
  }
  store.addMessage(message, false);
  return message;
}

function stripUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
