import { newId } from "./ids.js";
import type { FakeFeishuMessage, FakeFeishuReaction, FakeFeishuUpload } from "./types.js";

/** Messages, reactions and uploads of the fake platform. */
export class FeishuStore {
  private readonly byId = new Map<string, FakeFeishuMessage>();
  private readonly chats = new Map<string, FakeFeishuMessage[]>();
  private readonly reactionsOf = new Map<string, FakeFeishuReaction[]>();
  /** Resource keys a message carries (image_key / file_key) -> bytes. */
  private readonly resources = new Map<string, Uint8Array>();
  readonly uploads: FakeFeishuUpload[] = [];

  constructor(private readonly clock: () => number) {}

  add(message: Omit<FakeFeishuMessage, "messageId" | "deleted" | "updates" | "createdAt"> & { messageId?: string }): FakeFeishuMessage {
    const stored: FakeFeishuMessage = {
      ...message,
      messageId: message.messageId ?? newId("om_"),
      deleted: false,
      updates: 0,
      createdAt: this.clock(),
    };
    const existing = this.byId.get(stored.messageId);
    if (existing) return existing;
    this.byId.set(stored.messageId, stored);
    const chat = this.chats.get(stored.chatId) ?? [];
    chat.push(stored);
    this.chats.set(stored.chatId, chat);
    return stored;
  }

  get(messageId: string): FakeFeishuMessage | undefined {
    return this.byId.get(messageId);
  }

  inChat(chatId: string): FakeFeishuMessage[] {
    return [...(this.chats.get(chatId) ?? [])];
  }

  /** The chat a reply lands in and its thread fields: same chat, root = the parent's root or the parent. */
  replyPlacement(parent: FakeFeishuMessage, inThread: boolean): Pick<FakeFeishuMessage, "chatId" | "rootId" | "parentId" | "threadId"> {
    const threadId = parent.threadId ?? (inThread ? newId("omt_") : undefined);
    if (inThread && !parent.threadId) parent.threadId = threadId;
    return { chatId: parent.chatId, rootId: parent.rootId ?? parent.messageId, parentId: parent.messageId, threadId };
  }

  addReaction(messageId: string, emojiType: string): FakeFeishuReaction {
    const reaction: FakeFeishuReaction = { reactionId: newId("rc_"), emojiType, removed: false };
    const list = this.reactionsOf.get(messageId) ?? [];
    list.push(reaction);
    this.reactionsOf.set(messageId, list);
    return reaction;
  }

  reactions(messageId: string): FakeFeishuReaction[] {
    return (this.reactionsOf.get(messageId) ?? []).map((r) => ({ ...r }));
  }

  removeReaction(messageId: string, reactionId: string): FakeFeishuReaction | undefined {
    const reaction = this.reactionsOf.get(messageId)?.find((r) => r.reactionId === reactionId && !r.removed);
    if (reaction) reaction.removed = true;
    return reaction;
  }

  addUpload(kind: "image" | "file", bytes: Uint8Array, fields: Record<string, string>): FakeFeishuUpload {
    const upload: FakeFeishuUpload = { kind, key: newId(kind === "image" ? "img_v3_" : "file_v3_"), bytes, fields };
    this.uploads.push(upload);
    this.resources.set(upload.key, bytes);
    return upload;
  }

  /** Bytes a user's message carries, under its key. */
  addResource(key: string, bytes: Uint8Array): void {
    this.resources.set(key, bytes);
  }

  resource(key: string): Uint8Array | undefined {
    return this.resources.get(key);
  }
}
