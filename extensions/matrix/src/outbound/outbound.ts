/**
 * The outbound half of a Matrix session: text (Markdown -> HTML), live previews (the MSC4357
 * marker while a preview grows, `m.replace` edits, the final edit without the marker), redactions,
 * files (encrypted in encrypted rooms) and typing. It talks to the homeserver through a small
 * `MatrixTransport` (the session backs it with matrix-js-sdk, which also encrypts events in
 * encrypted rooms), so it can be tested alone.
 */
import { randomUUID } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { ChannelOutbound, OutboundMedia, OutboundTarget, SendOptions, SentMessage } from "@openclaw/plugin-sdk";
import { httpFetch, PermanentSendError } from "@openclaw/plugin-sdk";
import type { MatrixStreamingMode } from "../streaming.js";
import { encryptAttachment } from "../crypto/media.js";
import { editContent, textContent, withRelation } from "./content.js";
import { toSendError } from "./errors.js";

/** What the outbound needs from the homeserver connection. */
export interface MatrixTransport {
  /** Sends one event; resolves with its event id once the homeserver accepted it. */
  sendEvent(roomId: string, type: string, content: Record<string, unknown>, txnId: string): Promise<string>;
  /** Redacts an event. */
  redact(roomId: string, eventId: string, txnId: string): Promise<void>;
  /** Uploads bytes; resolves with the `mxc://` URI. */
  upload(data: Uint8Array, info: { type: string; name: string }): Promise<string>;
  setTyping(roomId: string, typing: boolean, timeoutMs: number): Promise<void>;
  /** Whether the room is end-to-end encrypted (its files must be encrypted too). */
  isEncrypted(roomId: string): boolean;
  /** The room of a chat id: a room id as is, a DM room for a user id (`@user:server`, created when missing). */
  roomFor(chatId: string): Promise<string>;
}

/** Options of `createMatrixOutbound`. */
export interface MatrixOutboundOptions {
  /** The streaming mode of a room (`streaming.rooms.<room>.mode`, else `streaming.mode`): `quiet` previews are notices. */
  modeFor(roomId: string): MatrixStreamingMode;
  /** Largest file sent, in bytes. */
  mediaMaxBytes: number;
  /** Called after each accepted send (for `lastOutboundAt`). */
  onSent?(): void;
}

const MIME_BY_EXT: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".m4a": "audio/mp4",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
};

const MSGTYPE: Record<OutboundMedia["kind"], string> = { image: "m.image", document: "m.file", audio: "m.audio", video: "m.video" };

async function loadMedia(source: string, maxBytes: number): Promise<{ data: Uint8Array; type?: string; name: string }> {
  if (/^https?:\/\//i.test(source)) {
    const response = await httpFetch(source);
    if (!response.ok) throw new PermanentSendError(`Matrix: cannot fetch ${source} (HTTP ${response.status})`, "media_fetch");
    const data = new Uint8Array(await response.arrayBuffer());
    if (data.byteLength > maxBytes) throw new PermanentSendError(`Matrix: ${source} is larger than mediaMaxMb`, "media_too_large");
    const type = response.headers.get("content-type")?.split(";")[0];
    return { data, ...(type ? { type } : {}), name: path.basename(new URL(source).pathname) || "file" };
  }
  const info = await stat(source).catch(() => undefined);
  if (!info?.isFile()) throw new PermanentSendError(`Matrix: the file ${source} does not exist`, "media_missing");
  if (info.size > maxBytes)
    throw new PermanentSendError(`Matrix: ${source} (${info.size} bytes) is larger than mediaMaxMb`, "media_too_large");
  return { data: await readFile(source), name: path.basename(source) };
}

/** Builds the outbound methods of one account. */
export function createMatrixOutbound(
  transport: MatrixTransport,
  options: MatrixOutboundOptions,
): Required<Omit<ChannelOutbound, "openStream">> {
  const styleFor = (roomId: string, opts: SendOptions) => {
    const quiet = options.modeFor(roomId) === "quiet";
    const preview = opts.priority === "preview";
    return { notice: quiet && preview, live: preview && !quiet, noMentions: preview };
  };
  const send = async (roomId: string, type: string, content: Record<string, unknown>, txnId: string, what: string): Promise<string> => {
    try {
      const id = await transport.sendEvent(roomId, type, content, txnId);
      options.onSent?.();
      return id;
    } catch (error) {
      throw toSendError(error, what);
    }
  };
  const roomOf = async (target: OutboundTarget): Promise<string> => {
    try {
      return await transport.roomFor(target.chat.id);
    } catch (error) {
      throw toSendError(error, `finding the room of ${target.chat.id}`);
    }
  };

  return {
    async sendText(target, text, opts): Promise<SentMessage> {
      const roomId = await roomOf(target);
      const content = withRelation(textContent(text, opts.format, styleFor(roomId, opts)), target);
      const eventId = await send(roomId, "m.room.message", content, opts.idempotencyKey, `send to ${roomId}`);
      return { messageId: eventId };
    },

    async editText(target, messageId, text, opts): Promise<void> {
      const roomId = await roomOf(target);
      const next = textContent(text, opts.format, styleFor(roomId, opts));
      // Each edit is its own transaction: the idempotency key names the message, not the revision.
      await send(
        roomId,
        "m.room.message",
        editContent(messageId, next),
        `${opts.idempotencyKey}.edit.${randomUUID()}`,
        `edit ${messageId} in ${roomId}`,
      );
    },

    async deleteMessage(target, messageId, opts): Promise<void> {
      const roomId = await roomOf(target);
      try {
        await transport.redact(roomId, messageId, `${opts.idempotencyKey}.redact.${messageId}`);
        options.onSent?.();
      } catch (error) {
        throw toSendError(error, `redact ${messageId} in ${roomId}`);
      }
    },

    async sendMedia(target, media, opts): Promise<SentMessage> {
      const roomId = await roomOf(target);
      const file = await loadMedia(media.source, options.mediaMaxBytes);
      const name = media.fileName ?? file.name;
      const mimetype = file.type ?? MIME_BY_EXT[path.extname(name).toLowerCase()] ?? "application/octet-stream";
      const content: Record<string, unknown> = {
        msgtype: MSGTYPE[media.kind],
        body: media.caption ?? name,
        filename: name,
        info: { mimetype, size: file.data.byteLength },
      };
      const caption = media.caption ? textContent(media.caption, opts.format) : undefined;
      if (caption?.formatted_body !== undefined) {
        content.format = caption.format;
        content.formatted_body = caption.formatted_body;
      }
      try {
        if (transport.isEncrypted(roomId)) {
          const encrypted = encryptAttachment(file.data);
          const url = await transport.upload(encrypted.data, { type: "application/octet-stream", name });
          content.file = { ...encrypted.file, url };
        } else {
          content.url = await transport.upload(file.data, { type: mimetype, name });
        }
      } catch (error) {
        throw toSendError(error, `upload ${name}`);
      }
      const eventId = await send(roomId, "m.room.message", withRelation(content, target), opts.idempotencyKey, `send ${name} to ${roomId}`);
      return { messageId: eventId };
    },

    async typing(target): Promise<void> {
      const roomId = await roomOf(target);
      try {
        await transport.setTyping(roomId, true, 30_000);
      } catch (error) {
        throw toSendError(error, `typing in ${roomId}`);
      }
    },
    /** Stops "typing…" at once rather than letting its 30 s timeout run out. */
    async clearTyping(target): Promise<void> {
      const roomId = await roomOf(target);
      try {
        await transport.setTyping(roomId, false, 0);
      } catch (error) {
        throw toSendError(error, `ending typing in ${roomId}`);
      }
    },
  };
}
