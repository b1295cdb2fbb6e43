import { randomBytes } from "node:crypto";
import { badRequest } from "./errors.js";
import type { FakeMessageVersion, TgChat, TgMessage, TgUpdate, TgUser } from "./types.js";

/** A message the fake knows about (the bot's or a user's). */
export interface StoredMessage {
  /** The current content, as the Bot API would return it. */
  message: TgMessage;
  fromBot: boolean;
  deleted: boolean;
  /** Bot messages: the original send, then each edit. */
  versions: FakeMessageVersion[];
}

/** A file the bot can fetch with getFile and the download URL. */
export interface StoredFile {
  file_id: string;
  file_unique_id: string;
  file_path: string;
  fileName: string;
  mimeType: string;
  data: Buffer;
}

export interface WebhookState {
  url: string;
  secretToken?: string;
  allowedUpdates?: string[];
  maxConnections?: number;
}

/** Chats, messages, files, queued updates and webhook state of one fake bot. */
export class TelegramStore {
  chats = new Map<number, TgChat>();
  messages = new Map<number, StoredMessage>();
  /** Forum topics and reply threads seen per chat. */
  threads = new Map<number, Set<number>>();
  updates: TgUpdate[] = [];
  files = new Map<string, StoredFile>();
  webhook: WebhookState | undefined;
  /** The last `allowed_updates` a getUpdates call named (Telegram remembers it). */
  allowedUpdates: string[] | undefined;
  /** setMyCommands lists by scope and language (see `commandsKey`). */
  commands = new Map<string, unknown[]>();
  /** The held getUpdates request, aborted when a newer one arrives. */
  currentPoll: AbortController | undefined;
  /** Set by close(): held polls answer with an empty list. */
  closing = false;
  private nextUpdateId = 1;
  private nextMessageId = 1;
  /** Bot messages per chat in send order, so `chat(id)` does not walk every chat's messages. */
  private readonly botByChat = new Map<number, StoredMessage[]>();
  private nextFile = 1;

  constructor(readonly bot: TgUser) {}

  /** Forgets everything except the id counters (so a poller's offset stays valid). */
  clear(): void {
    this.chats.clear();
    this.messages.clear();
    this.botByChat.clear();
    this.threads.clear();
    this.updates = [];
    this.files.clear();
    this.webhook = undefined;
    this.allowedUpdates = undefined;
    this.commands.clear();
  }

  takeUpdateId(): number {
    return this.nextUpdateId++;
  }

  takeMessageId(): number {
    return this.nextMessageId++;
  }

  /** Records (or refreshes) a chat seen in a user's message. */
  upsertChat(chat: TgChat): TgChat {
    const merged = { ...this.chats.get(chat.id), ...chat };
    this.chats.set(chat.id, merged);
    return merged;
  }

  /**
   * Finds the chat a `chat_id` parameter names: a number, a numeric string or `@username`.
   * Unknown numeric ids become private chats unless `strict`, which answers "chat not found".
   */
  resolveChat(chatId: unknown, strict: boolean): TgChat {
    if (chatId === undefined || chatId === null || chatId === "") throw badRequest("chat_id is empty");
    if (typeof chatId === "string" && chatId.startsWith("@")) {
      const name = chatId.slice(1).toLowerCase();
      for (const chat of this.chats.values()) if (chat.username?.toLowerCase() === name) return chat;
      throw badRequest("chat not found");
    }
    const id = typeof chatId === "number" ? chatId : Number(chatId);
    if (!Number.isInteger(id)) throw badRequest("chat not found");
    const known = this.chats.get(id);
    if (known) return known;
    if (strict) throw badRequest("chat not found");
    return this.upsertChat({ id, type: id < 0 ? "supergroup" : "private" });
  }

  noteThread(chatId: number, threadId: number): void {
    let set = this.threads.get(chatId);
    if (!set) this.threads.set(chatId, (set = new Set()));
    set.add(threadId);
  }

  /**
   * Checks a `message_thread_id` for a send. In a forum, the thread must be a topic the fake has
   * seen, and the General topic (1) is refused as Telegram does; elsewhere any id is accepted.
   */
  checkThread(chat: TgChat, threadId: number | undefined, forChatAction = false): void {
    if (threadId === undefined || !chat.is_forum) return;
    if (threadId === 1 && forChatAction) return;
    if (threadId === 1 || !this.threads.get(chat.id)?.has(threadId)) throw badRequest("message thread not found");
  }

  /** A live (not deleted) message in `chatId`, or undefined. */
  liveMessage(chatId: number, messageId: number): StoredMessage | undefined {
    const stored = this.messages.get(messageId);
    if (!stored || stored.deleted || stored.message.chat.id !== chatId) return undefined;
    return stored;
  }

  addMessage(message: TgMessage, fromBot: boolean, version?: FakeMessageVersion): StoredMessage {
    const stored: StoredMessage = { message, fromBot, deleted: false, versions: version ? [version] : [] };
    this.messages.set(message.message_id, stored);
    if (fromBot) {
      const list = this.botByChat.get(message.chat.id);
      if (list) list.push(stored);
      else this.botByChat.set(message.chat.id, [stored]);
    }
    return stored;
  }

  /** The bot's messages in one chat, in send order (message ids only grow). */
  botMessagesIn(chatId: number): readonly StoredMessage[] {
    return this.botByChat.get(chatId) ?? [];
  }

  /** Bot messages in send order. */
  botMessages(): StoredMessage[] {
    return [...this.messages.values()].filter((m) => m.fromBot).sort((a, b) => a.message.message_id - b.message.message_id);
  }

  enqueue(update: Omit<TgUpdate, "update_id">): TgUpdate {
    const full = { update_id: this.takeUpdateId(), ...update } as TgUpdate;
    this.updates.push(full);
    return full;
  }

  /** Confirms (forgets) every queued update whose id is below `offset`. */
  confirmBelow(offset: number): void {
    this.updates = this.updates.filter((u) => u.update_id >= offset);
  }

  /** Stores bytes as a downloadable file and returns it. */
  addFile(data: Buffer, fileName: string, mimeType: string, folder: string): StoredFile {
    const seq = this.nextFile++;
    const unique = `AgADfake${seq}`;
    const extension = /\.([A-Za-z0-9]{1,8})$/.exec(fileName)?.[1] ?? "bin";
    const file: StoredFile = {
      file_id: `FAKE${folder.toUpperCase()}${seq}_${randomBytes(6).toString("hex")}`,
      file_unique_id: unique,
      file_path: `${folder}/file_${seq}.${extension}`,
      fileName,
      mimeType,
      data,
    };
    this.files.set(file.file_id, file);
    return file;
  }

  fileByPath(path: string): StoredFile | undefined {
    for (const file of this.files.values()) if (file.file_path === path) return file;
    return undefined;
  }
}

/** A shallow copy of a message fit to embed as `reply_to_message` (Telegram does not nest replies). */
export function asReplyTarget(message: TgMessage): TgMessage {
  const { reply_to_message: _nested, ...rest } = message;
  return structuredClone(rest) as TgMessage;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
