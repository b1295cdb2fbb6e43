/**
 * The sending side of a WhatsApp account: Markdown rendered as WhatsApp markup, split at
 * `textChunkLimit` (with `streaming.chunkMode`), the user's message quoted when core asks
 * (`replyToMode`), images, videos, documents and voice notes, and typing as `composing` presence.
 * Every socket call goes through one serial queue (WhatsApp bans numbers that burst), and a send
 * made while the socket is down waits for the reconnect (bounded) instead of failing the reply.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  type ChannelOutbound,
  type ChatRef,
  chunkText,
  httpFetch,
  type OutboundMedia,
  PermanentSendError,
  RateLimitedError,
  type SendOptions,
  type SentMessage,
  SplitSendTracker,
  TransientSendError,
} from "@openclaw/plugin-sdk";
import type { AnyMessageContent, WAMessage } from "baileys";
import { jidEncode } from "./baileys.js";
import { SerialQueue } from "./auth-state.js";
import type { WhatsAppConnection } from "./connection.js";
import { markdownToWhatsApp } from "./format/markup.js";
import { statusCodeOf, type WhatsAppSocketLike } from "./socket.js";

/** What the outbound side needs. */
export interface WhatsAppOutboundOptions {
  account: { textChunkLimit: number; chunkMode: "length" | "newline"; mediaMaxBytes: number };
  connection: Pick<WhatsAppConnection, "whenOpen" | "openSocket">;
  /** How long a send waits for a reconnect before failing (retryably). */
  reconnectWaitMs: number;
  /** How long to pause after WhatsApp refuses a send as rate-overlimit (429). */
  rateLimitedWaitMs: number;
  /** The inbound message with this id, for quoting (undefined when no longer remembered). */
  inboundMessage(id: string): WAMessage | undefined;
  /** Called with the id of every message the bot sent. */
  onSent(id: string): void;
}

/** The JID of a chat: `+15551234567` -> `15551234567@s.whatsapp.net`; JIDs (groups, LIDs) stay. */
export function jidOfChat(chat: ChatRef): string {
  const id = chat.id.trim();
  if (id.includes("@")) return id;
  const digits = id.replace(/\D/g, "");
  if (digits === "") throw new PermanentSendError(`"${chat.id}" is not a WhatsApp chat (an E.164 number or a JID)`, "bad_chat");
  return jidEncode(digits, "s.whatsapp.net");
}

const MIME_BY_EXT: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".mp4": "video/mp4",
  ".ogg": "audio/ogg; codecs=opus",
  ".opus": "audio/ogg; codecs=opus",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".json": "application/json",
  ".zip": "application/zip",
};

function mimeOf(name: string, kind: OutboundMedia["kind"]): string {
  const known = MIME_BY_EXT[path.extname(name).toLowerCase()];
  if (known !== undefined) return known;
  return kind === "image"
    ? "image/jpeg"
    : kind === "video"
      ? "video/mp4"
      : kind === "audio"
        ? "audio/ogg; codecs=opus"
        : "application/octet-stream";
}

async function loadMedia(source: string, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  let data: Buffer;
  if (/^https?:\/\//i.test(source)) {
    const response = await httpFetch(source, { signal });
    if (!response.ok) throw new PermanentSendError(`fetching ${source} failed: HTTP ${response.status}`, "media_fetch");
    data = Buffer.from(await response.arrayBuffer());
  } else {
    try {
      data = await readFile(source);
    } catch (error) {
      throw new PermanentSendError(`cannot read ${source}: ${(error as Error).message}`, "media_read");
    }
  }
  if (data.length > maxBytes)
    throw new PermanentSendError(
      `${path.basename(source)} is ${(data.length / 1e6).toFixed(1)} MB, over channels.whatsapp.mediaMaxMb (${maxBytes / 1e6} MB)`,
      "media_too_large",
    );
  return data;
}

/** A minimal WAMessage to quote when the original is no longer remembered. */
function quoteStub(jid: string, id: string): WAMessage {
  return { key: { remoteJid: jid, id, fromMe: false }, message: { conversation: "" } };
}

/** Builds the `ChannelOutbound` of one account. */
export function createWhatsAppOutbound(
  options: WhatsAppOutboundOptions,
): Required<Pick<ChannelOutbound, "sendText" | "sendMedia" | "typing">> {
  const { account, connection } = options;
  const queue = new SerialQueue();
  const tracker = new SplitSendTracker();

  /** One socket call, queued behind every other, on the open socket (waiting for a reconnect). */
  const call = <T>(send: SendOptions, action: (socket: WhatsAppSocketLike) => Promise<T>): Promise<T> =>
    queue.run(async () => {
      let socket: WhatsAppSocketLike;
      try {
        socket = await connection.whenOpen(options.reconnectWaitMs, send.signal);
      } catch (error) {
        if (send.signal.aborted) throw error;
        throw new TransientSendError((error as Error).message, { retryAfterMs: 5000 });
      }
      try {
        return await action(socket);
      } catch (error) {
        const code = statusCodeOf(error);
        if (code === 429)
          throw new RateLimitedError("WhatsApp refused the send (rate-overlimit)", options.rateLimitedWaitMs, { cause: error });
        if (code !== undefined && code >= 400 && code < 500 && code !== 408 && code !== 428 && code !== 440)
          throw new PermanentSendError(`WhatsApp refused the send: ${(error as Error).message} (${code})`, String(code));
        throw new TransientSendError(`WhatsApp send failed: ${(error as Error).message}`, { cause: error });
      }
    });

  const send = async (jid: string, content: AnyMessageContent, quoted: WAMessage | undefined, opts: SendOptions): Promise<string> => {
    const sent = await call(opts, (socket) => socket.sendMessage(jid, content, quoted !== undefined ? { quoted } : undefined));
    const id = sent?.key?.id;
    if (typeof id !== "string" || id === "") throw new PermanentSendError("WhatsApp answered the send without a message id", "no_id");
    options.onSent(id);
    return id;
  };

  const quotedFor = (jid: string, replyTo: string | undefined): WAMessage | undefined =>
    replyTo === undefined ? undefined : (options.inboundMessage(replyTo) ?? quoteStub(jid, replyTo));

  return {
    async sendText(target, text, opts): Promise<SentMessage> {
      const jid = jidOfChat(target.chat);
      const rendered = opts.format === "markdown" ? markdownToWhatsApp(text) : text;
      const parts = chunkText(rendered, { maxChars: account.textChunkLimit, mode: account.chunkMode });
      if (parts.length === 0) parts.push(rendered.trim() === "" ? text : rendered);
      const quoted = quotedFor(jid, target.replyToMessageId);
      if (parts.length === 1) return { messageId: await send(jid, { text: parts[0]! }, quoted, opts) };
      return tracker.send(opts.idempotencyKey, parts.length, (i) => send(jid, { text: parts[i]! }, i === 0 ? quoted : undefined, opts));
    },

    async sendMedia(target, media, opts): Promise<SentMessage> {
      const jid = jidOfChat(target.chat);
      const data = await loadMedia(media.source, account.mediaMaxBytes, opts.signal);
      const name = media.fileName ?? path.basename(media.source.split("?")[0]!);
      const mimetype = mimeOf(name, media.kind);
      const caption = media.caption !== undefined && media.caption !== "" ? markdownToWhatsApp(media.caption) : undefined;
      const quoted = quotedFor(jid, target.replyToMessageId);
      const withCaption = caption !== undefined ? { caption } : {};
      switch (media.kind) {
        case "image":
          return { messageId: await send(jid, { image: data, mimetype, ...withCaption }, quoted, opts) };
        case "video":
          return { messageId: await send(jid, { video: data, mimetype, ...withCaption }, quoted, opts) };
        case "document":
          return { messageId: await send(jid, { document: data, mimetype, fileName: name, ...withCaption }, quoted, opts) };
        case "audio": {
          // A voice note cannot carry a caption: the caption follows as its own message.
          if (caption === undefined) return { messageId: await send(jid, { audio: data, ptt: true, mimetype }, quoted, opts) };
          return tracker.send(opts.idempotencyKey, 2, (i) =>
            i === 0 ? send(jid, { audio: data, ptt: true, mimetype }, quoted, opts) : send(jid, { text: caption }, undefined, opts),
          );
        }
      }
    },

    async typing(target, opts): Promise<void> {
      // Typing is a courtesy: skip it while the socket is down rather than wait.
      if (connection.openSocket === undefined) return;
      const jid = jidOfChat(target.chat);
      await call(opts, (socket) => socket.sendPresenceUpdate("composing", jid));
    },
  };
}
