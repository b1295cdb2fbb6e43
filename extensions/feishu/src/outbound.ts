/**
 * The sending side of one Feishu account: text as `post` messages (markdown, split to fit 30 KB of
 * serialized content and `textChunkLimit`), edits, deletes, files, the "Typing" reaction, and the
 * CardKit card stream. Replies go under the user's message in a thread when the chat is a thread
 * (topic groups) or `replyInThread` is on; a quoted reply otherwise when the host asks for one.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import {
  type ChannelOutbound,
  httpFetch,
  type NativeStream,
  type OutboundMedia,
  type OutboundTarget,
  PermanentSendError,
  type SendOptions,
  type SentMessage,
  SplitSendTracker,
} from "@openclaw/plugin-sdk";
import type { FeishuAccount } from "./account.js";
import type { FeishuApi } from "./api.js";
import { type CardPacing, CardStream } from "./card-stream.js";
import { FEISHU_CONTENT_BYTES } from "./config.js";
import { chunkForFeishu } from "./text.js";

/** The emoji of the typing reaction. */
export const TYPING_EMOJI = "Typing";

/** Bytes of text one post holds: the 30 KB limit less room for the post around it. */
const POST_TEXT_BYTES = FEISHU_CONTENT_BYTES - 1024;

/** The content of a post holding markdown `text`. */
export function postContent(text: string): string {
  return JSON.stringify({ zh_cn: { content: [[{ tag: "md", text }]] } });
}

export interface FeishuOutboundOptions {
  account: FeishuAccount;
  api: FeishuApi;
  pacing?: CardPacing;
  /** Bytes of text per streaming card (tests shrink it). */
  cardBytes?: number;
}

/** The outbound side of the session, plus the card streams it opened (for measurements). */
export type FeishuOutbound = Required<
  Pick<ChannelOutbound, "editText" | "deleteMessage" | "sendMedia" | "typing" | "clearTyping" | "openStream">
> &
  ChannelOutbound;

export function createFeishuOutbound(options: FeishuOutboundOptions): FeishuOutbound {
  const { account, api } = options;
  const split = new SplitSendTracker();
  /** Typing reactions by the message they are on. */
  const typing = new Map<string, Promise<string | undefined>>();

  /** Sends one message where `target` says; returns its id. */
  async function send(target: OutboundTarget, msgType: string, content: string, sendOptions: SendOptions): Promise<string> {
    const chat = target.chat;
    const threaded =
      chat.threadId !== undefined || (chat.kind === "group" && (account.groupReplyInThread[chat.id] ?? account.replyInThread));
    const replyTo = threaded ? (target.replyToMessageId ?? sendOptions.inReplyTo) : target.replyToMessageId;
    const uuid = sendOptions.idempotencyKey.length <= 50 ? sendOptions.idempotencyKey : undefined;
    let data: { message_id?: string };
    if (replyTo !== undefined) {
      data = await api.call("a reply", "POST", `/open-apis/im/v1/messages/${encodeURIComponent(replyTo)}/reply`, {
        msg_type: msgType,
        content,
        ...(threaded ? { reply_in_thread: true } : {}),
        ...(uuid ? { uuid } : {}),
      });
    } else {
      const idType = chat.id.startsWith("ou_") ? "open_id" : "chat_id";
      data = await api.call(
        "a message",
        "POST",
        "/open-apis/im/v1/messages",
        { receive_id: chat.id, msg_type: msgType, content, ...(uuid ? { uuid } : {}) },
        { receive_id_type: idType },
      );
    }
    if (!data.message_id) throw new PermanentSendError("Feishu accepted a message but returned no message_id", "no_message_id");
    return data.message_id;
  }

  async function download(source: string): Promise<Buffer> {
    const response = await httpFetch(source);
    if (!response.ok) throw new PermanentSendError(`fetching ${source} failed: HTTP ${response.status}`, "media_fetch");
    return Buffer.from(await response.arrayBuffer());
  }

  async function upload(media: OutboundMedia): Promise<{ msgType: string; content: string }> {
    const bytes = /^https?:\/\//.test(media.source) ? await download(media.source) : await readFile(media.source);
    if (bytes.byteLength > account.mediaMaxBytes) {
      throw new PermanentSendError(
        `the file ${media.fileName ?? basename(media.source)} is ${bytes.byteLength} bytes, over channels.feishu.mediaMaxMb`,
        "too_large",
      );
    }
    if (media.kind === "image") {
      const res = await api.upload<{ image_key?: string }>("an image upload", "/open-apis/im/v1/images", [
        { name: "image_type", value: "message" },
        { name: "image", file: bytes, fileName: media.fileName ?? "image" },
      ]);
      if (!res?.image_key) throw new PermanentSendError("Feishu did not take the image", "upload_failed");
      return { msgType: "image", content: JSON.stringify({ image_key: res.image_key }) };
    }
    const name = media.fileName ?? basename(media.source.split("?")[0] ?? "file");
    const res = await api.upload<{ file_key?: string }>("a file upload", "/open-apis/im/v1/files", [
      { name: "file_type", value: fileType(name) },
      { name: "file_name", value: name },
      { name: "file", file: bytes, fileName: name },
    ]);
    if (!res?.file_key) throw new PermanentSendError("Feishu did not take the file", "upload_failed");
    return { msgType: "file", content: JSON.stringify({ file_key: res.file_key }) };
  }

  return {
    async sendText(target, text, sendOptions): Promise<SentMessage> {
      const chunks = chunkForFeishu(text, { maxChars: account.textChunkLimit, maxBytes: POST_TEXT_BYTES });
      return split.send(sendOptions.idempotencyKey, Math.max(1, chunks.length), (i) =>
        send(i === 0 ? target : { chat: target.chat }, "post", postContent(chunks[i] ?? ""), {
          ...sendOptions,
          idempotencyKey: `${sendOptions.idempotencyKey}#${i}`,
        }),
      );
    },

    async editText(_target, messageId, text) {
      await api.call("an edit", "PUT", `/open-apis/im/v1/messages/${encodeURIComponent(messageId)}`, {
        msg_type: "post",
        content: postContent(text),
      });
    },

    async deleteMessage(_target, messageId) {
      await api.call("a delete", "DELETE", `/open-apis/im/v1/messages/${encodeURIComponent(messageId)}`);
    },

    async sendMedia(target, media, sendOptions): Promise<SentMessage> {
      const { msgType, content } = await upload(media);
      const caption = media.caption?.trim();
      if (caption && msgType === "image") {
        // An image and its caption fit one post; a file cannot carry one, so its caption follows it.
        const imageKey = (JSON.parse(content) as { image_key: string }).image_key;
        const post = JSON.stringify({ zh_cn: { content: [[{ tag: "img", image_key: imageKey }], [{ tag: "md", text: caption }]] } });
        return { messageId: await send(target, "post", post, sendOptions) };
      }
      const parts = caption ? 2 : 1;
      return split.send(sendOptions.idempotencyKey, parts, (i) =>
        i === 0
          ? send(target, msgType, content, sendOptions)
          : send({ chat: target.chat }, "post", postContent(caption!), {
              ...sendOptions,
              idempotencyKey: `${sendOptions.idempotencyKey}#c`,
            }),
      );
    },

    async typing(_target, sendOptions) {
      const on = sendOptions.inReplyTo;
      if (!account.typingIndicator || on === undefined || typing.has(on)) return;
      // Added once per message: every add notifies the user, so it is never renewed.
      const added = api
        .call<{ reaction_id?: string }>("the typing reaction", "POST", `/open-apis/im/v1/messages/${encodeURIComponent(on)}/reactions`, {
          reaction_type: { emoji_type: TYPING_EMOJI },
        })
        .then((d) => d.reaction_id);
      typing.set(on, added);
      try {
        await added;
      } catch (error) {
        typing.delete(on);
        throw error;
      }
    },

    async clearTyping(_target, sendOptions) {
      const on = sendOptions.inReplyTo;
      if (on === undefined) return;
      const added = typing.get(on);
      typing.delete(on);
      const reactionId = await added?.catch(() => undefined);
      if (reactionId === undefined) return;
      await api.call(
        "removing the typing reaction",
        "DELETE",
        `/open-apis/im/v1/messages/${encodeURIComponent(on)}/reactions/${encodeURIComponent(reactionId)}`,
      );
    },

    async openStream(target, sendOptions): Promise<NativeStream | null> {
      if (account.streaming.mode === "off") return null;
      return CardStream.open({
        api,
        sendCard: (content) => send(target, "interactive", content, sendOptions),
        ...(options.pacing ? { pacing: options.pacing } : {}),
        ...(options.cardBytes ? { cardBytes: options.cardBytes } : {}),
      });
    },
  };
}

/** Feishu's `file_type` for an upload, from the file name. */
function fileType(name: string): string {
  const ext = name.toLowerCase().split(".").pop() ?? "";
  if (["opus", "mp4", "pdf", "doc", "xls", "ppt"].includes(ext)) return ext;
  if (ext === "docx") return "doc";
  if (ext === "xlsx") return "xls";
  if (ext === "pptx") return "ppt";
  return "stream";
}
