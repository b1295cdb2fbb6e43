/**
 * The sending side of a QQ Bot account: texts (plain or markdown) as passive replies carrying the
 * user message's `msg_id` and a fresh `msg_seq`, typing in C2C chats (msg_type 6), files through
 * the upload endpoint (msg_type 7), `message_reference` quotes, and the C2C native stream.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  chunkText,
  PermanentSendError,
  SplitSendTracker,
  type ChannelOutbound,
  type NativeStream,
  type OutboundMedia,
  type OutboundTarget,
  type SendOptions,
  type SentMessage,
} from "@openclaw/plugin-sdk";
import type { QQBotAccount } from "./account.js";
import type { QQApi } from "./api.js";
import { QQBOT_TEXT_LIMIT } from "./config.js";
import type { MsgSeqCounter } from "./msg-seq.js";
import { markdownToPlain } from "./format/plain.js";
import { C2CStream } from "./stream.js";
import { type QQTarget, targetOf } from "./targets.js";

/** `file_type` of the upload endpoint per outgoing media kind. */
const FILE_TYPE: Record<OutboundMedia["kind"], number> = { image: 1, video: 2, audio: 3, document: 4 };

/** What the outbound side needs besides the API. */
export interface QQOutboundOptions {
  account: Pick<QQBotAccount, "markdownSupport" | "textChunkLimit">;
  api: QQApi;
  seq: MsgSeqCounter;
}

/**
 * Platform codes that refuse a passive reply itself (not its content): 22009, the user message's
 * passive replies are used up; 304026, its msg_id is no longer valid (the reply window closed).
 */
export const PASSIVE_REPLY_REFUSED = new Set(["22009", "304026"]);

const isPassiveReplyRefusal = (error: unknown): boolean =>
  error instanceof PermanentSendError && error.code !== undefined && PASSIVE_REPLY_REFUSED.has(error.code);

/** A message id out of a send's answer. */
function idOf(answer: { id?: unknown }, what: string): string {
  if (typeof answer.id === "string" && answer.id !== "") return answer.id;
  if (typeof answer.id === "number") return String(answer.id);
  throw new PermanentSendError(`QQ Bot answered ${what} without a message id`, "no_id");
}

/** Builds the `ChannelOutbound` of one account. */
export function createQQOutbound(options: QQOutboundOptions): ChannelOutbound & { openStream: NonNullable<ChannelOutbound["openStream"]> } {
  const { account, api, seq } = options;
  const tracker = new SplitSendTracker();

  /** `msg_id` and a new `msg_seq` for a passive reply; only a `msg_seq` for a proactive send. */
  const replyFields = (send: SendOptions): { msg_seq: number; msg_id?: string } =>
    send.inReplyTo !== undefined ? { msg_id: send.inReplyTo, msg_seq: seq.take() } : { msg_seq: seq.take() };

  const postMessage = async (target: QQTarget, body: Record<string, unknown>, send: SendOptions, what: string): Promise<string> => {
    try {
      return idOf(await api.request<{ id?: unknown }>("POST", target.messagesPath, body, send.signal), what);
    } catch (error) {
      // A passive reply the platform no longer takes (the user message's replies are used up, or
      // its reply window closed while the model worked) goes out as a proactive message instead:
      // the answer is never dropped for want of a reply slot.
      if (body.msg_id === undefined || !isPassiveReplyRefusal(error)) throw error;
      const { msg_id: _id, msg_seq: _seq, message_reference: _quote, ...proactive } = body;
      return idOf(await api.request<{ id?: unknown }>("POST", target.messagesPath, proactive, send.signal), what);
    }
  };

  const textBody = (text: string, target: OutboundTarget, send: SendOptions): Record<string, unknown> => {
    const quote = target.replyToMessageId !== undefined ? { message_reference: { message_id: target.replyToMessageId } } : {};
    if (account.markdownSupport && send.format === "markdown") return { markdown: { content: text }, msg_type: 2, ...replyFields(send) };
    // Without the markdown permission the model's Markdown is shown as the plain text it means.
    const content = send.format === "markdown" ? markdownToPlain(text) : text;
    return { content, msg_type: 0, ...quote, ...replyFields(send) };
  };

  return {
    async sendText(target, text, send) {
      const qq = targetOf(target.chat);
      const limit = Math.min(account.textChunkLimit, QQBOT_TEXT_LIMIT);
      const parts = text.length <= limit ? [text] : chunkText(text, { maxChars: limit });
      if (parts.length === 1) return { messageId: await postMessage(qq, textBody(text, target, send), send, "a message") };
      return tracker.send(send.idempotencyKey, parts.length, (i) => postMessage(qq, textBody(parts[i]!, target, send), send, "a message"));
    },

    async typing(target, send) {
      const qq = targetOf(target.chat);
      // Typing exists in C2C chats only, and only as a passive reply.
      if (qq.scene !== "c2c" || send.inReplyTo === undefined) return;
      await api.request(
        "POST",
        qq.messagesPath,
        { msg_type: 6, input_notify: { input_type: 1, input_second: 10 }, msg_id: send.inReplyTo, msg_seq: seq.take() },
        send.signal,
      );
    },

    async sendMedia(target, media, send): Promise<SentMessage> {
      const qq = targetOf(target.chat);
      if (qq.filesPath === undefined)
        throw new PermanentSendError(`QQ Bot cannot send files to a guild ${qq.scene === "dms" ? "DM" : "channel"}`, "media_unsupported");
      const remote = /^https?:\/\//i.test(media.source);
      const fileName = media.fileName ?? (remote ? undefined : path.basename(media.source));
      const upload = {
        file_type: FILE_TYPE[media.kind],
        srv_send_msg: false,
        ...(remote ? { url: media.source } : { file_data: (await readFile(media.source)).toString("base64") }),
        ...(fileName !== undefined && media.kind === "document" ? { file_name: fileName } : {}),
      };
      const uploaded = await api.request<{ file_info?: unknown }>("POST", qq.filesPath, upload, send.signal);
      if (typeof uploaded.file_info !== "string")
        throw new PermanentSendError("QQ Bot answered the upload without file_info", "no_file_info");
      const body = { msg_type: 7, media: { file_info: uploaded.file_info }, content: media.caption ?? "", ...replyFields(send) };
      return { messageId: await postMessage(qq, body, send, "a file") };
    },

    async openStream(target, send): Promise<NativeStream | null> {
      const qq = targetOf(target.chat);
      // Streams exist in C2C chats only, and answer a user message. Chunks do not take the open's
      // signal: core may end the preview phase while the stream still has to be finished.
      if (qq.scene !== "c2c" || send.inReplyTo === undefined) return null;
      return new C2CStream({ api, openid: target.chat.id, msgId: send.inReplyTo, msgSeq: seq.take() });
    },
  };
}
