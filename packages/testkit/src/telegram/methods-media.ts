import { randomBytes } from "node:crypto";
import { badRequest, FakeTelegramApiError, optionalInt, optionalString } from "./errors.js";
import { CAPTION_LIMIT, editTarget, outgoingSkeleton, renderOrThrow, type MethodContext, type MethodHandler } from "./method-context.js";
import { isUploadedFile } from "./request-body.js";
import { nowSeconds, type StoredFile, type TelegramStore } from "./store.js";
import type { TgMessage } from "./types.js";

/** Media kinds the send* methods accept, with the Bot API's upload size cap. */
const MEDIA_KINDS = ["photo", "document", "audio", "voice", "video", "animation"] as const;
type MediaKind = (typeof MEDIA_KINDS)[number];

const UPLOAD_LIMIT: Record<MediaKind, number> = {
  photo: 10 * 1024 * 1024,
  document: 50 * 1024 * 1024,
  audio: 50 * 1024 * 1024,
  voice: 50 * 1024 * 1024,
  video: 50 * 1024 * 1024,
  animation: 50 * 1024 * 1024,
};

/** getFile refuses files above 20 MB, as the hosted Bot API does. */
const DOWNLOAD_LIMIT = 20 * 1024 * 1024;

const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  json: "application/json",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  mp4: "video/mp4",
  zip: "application/zip",
};

export function guessMimeType(fileName: string, given?: string): string {
  if (given && given !== "application/octet-stream") return given;
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? "";
  return MIME_BY_EXTENSION[extension] ?? "application/octet-stream";
}

/** Resolves an InputFile parameter: an upload, a known file_id, or an http(s) URL. */
function resolveInputFile(store: TelegramStore, value: unknown, kind: MediaKind): StoredFile {
  if (isUploadedFile(value)) {
    if (value.size === 0) throw badRequest("file must be non-empty");
    if (value.size > UPLOAD_LIMIT[kind]) throw new FakeTelegramApiError(413, "Request Entity Too Large");
    return store.addFile(
      value.data,
      value.fileName,
      guessMimeType(value.fileName, value.mimeType),
      kind === "photo" ? "photos" : "documents",
    );
  }
  if (typeof value === "string" && value !== "") {
    const known = store.files.get(value);
    if (known) return known;
    if (/^https?:\/\//i.test(value)) {
      // The fake cannot fetch the URL; it records a stand-in file named after the URL's last segment.
      const name = decodeURIComponent(new URL(value).pathname.split("/").pop() || `${kind}.bin`);
      return store.addFile(Buffer.alloc(0), name, guessMimeType(name), kind === "photo" ? "photos" : "documents");
    }
  }
  if (value === undefined || value === null || value === "") throw badRequest(`there is no ${kind} in the request`);
  throw badRequest("wrong file identifier/HTTP URL specified");
}

/** The message field describing a media file. */
function mediaField(kind: MediaKind, file: StoredFile, params: Record<string, any>): unknown {
  const base = { file_id: file.file_id, file_unique_id: file.file_unique_id, file_size: file.data.length };
  if (kind === "photo") {
    return [{ ...base, width: optionalInt(params, "width") ?? 800, height: optionalInt(params, "height") ?? 600 }];
  }
  const out: Record<string, unknown> = { ...base, mime_type: file.mimeType };
  if (kind === "document" || kind === "audio" || kind === "video" || kind === "animation") out.file_name = file.fileName;
  if (kind !== "document") out.duration = optionalInt(params, "duration") ?? 0;
  if (kind === "video" || kind === "animation") {
    out.width = optionalInt(params, "width") ?? 640;
    out.height = optionalInt(params, "height") ?? 360;
  }
  return out;
}

/** Renders a caption (≤1024 characters after parsing) into the message and returns the version text. */
function applyCaption(message: TgMessage, params: Record<string, any>): { text: string; raw: string; parseMode?: string; entities: any[] } {
  const raw = optionalString(params, "caption") ?? "";
  const parseMode = optionalString(params, "parse_mode");
  const rendered = renderOrThrow(raw, parseMode, params.caption_entities);
  if (rendered.text.length > CAPTION_LIMIT) throw badRequest("message caption is too long");
  if (rendered.text) message.caption = rendered.text;
  if (rendered.entities.length > 0) message.caption_entities = rendered.entities;
  return { text: rendered.text, raw, entities: rendered.entities, ...(parseMode ? { parseMode } : {}) };
}

function sendMedia(kind: MediaKind, method: string): MethodHandler {
  return (ctx: MethodContext) => {
    const file = resolveInputFile(ctx.store, ctx.params[kind], kind);
    const { message } = outgoingSkeleton(ctx);
    (message as Record<string, unknown>)[kind] = mediaField(kind, file, ctx.params);
    const caption = applyCaption(message, ctx.params);
    ctx.store.addMessage(message, true, {
      text: caption.text,
      entities: caption.entities,
      rawText: caption.raw,
      ...(caption.parseMode ? { parseMode: caption.parseMode } : {}),
      method,
      time: Date.now(),
    });
    return structuredClone(message);
  };
}

/** sendMediaGroup: 2–10 photos/videos/documents/audios; each becomes a message sharing a media_group_id. */
function sendMediaGroup(ctx: MethodContext): TgMessage[] {
  const media = ctx.params.media;
  if (!Array.isArray(media) || media.length < 2 || media.length > 10) throw badRequest("wrong number of media in the album, must be 2-10");
  const groupId = BigInt(`0x${randomBytes(7).toString("hex")}`).toString();
  const prepared = media.map((item: Record<string, any>) => {
    const kind = item?.type as MediaKind;
    if (!["photo", "video", "document", "audio"].includes(kind)) throw badRequest("wrong type of the media group item");
    return { item, kind, file: resolveInputFile(ctx.store, item.media, kind) };
  });
  return prepared.map(({ item, kind, file }) => {
    const { message } = outgoingSkeleton(ctx);
    message.media_group_id = groupId;
    (message as Record<string, unknown>)[kind] = mediaField(kind, file, item);
    const caption = applyCaption(message, item);
    ctx.store.addMessage(message, true, {
      text: caption.text,
      entities: caption.entities,
      rawText: caption.raw,
      ...(caption.parseMode ? { parseMode: caption.parseMode } : {}),
      method: "sendMediaGroup",
      time: Date.now(),
    });
    return structuredClone(message);
  });
}

/** editMessageCaption: media messages only; "message is not modified" for an identical caption. */
function editMessageCaption(ctx: MethodContext): TgMessage {
  const stored = editTarget(ctx);
  const current = stored.message;
  if (current.text !== undefined) throw badRequest("there is no caption in the message to edit");
  const before = JSON.stringify([current.caption ?? "", current.caption_entities ?? []]);
  const next = { ...current };
  delete next.caption;
  delete next.caption_entities;
  const caption = applyCaption(next, ctx.params);
  if (JSON.stringify([next.caption ?? "", next.caption_entities ?? []]) === before) {
    throw badRequest(
      "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
  }
  delete current.caption;
  delete current.caption_entities;
  if (next.caption !== undefined) current.caption = next.caption;
  if (next.caption_entities !== undefined) current.caption_entities = next.caption_entities;
  current.edit_date = nowSeconds();
  stored.versions.push({
    text: caption.text,
    entities: caption.entities,
    rawText: caption.raw,
    ...(caption.parseMode ? { parseMode: caption.parseMode } : {}),
    method: "editMessageCaption",
    time: Date.now(),
  });
  return structuredClone(current);
}

/** getFile: the file's path for the download URL `/file/bot<token>/<file_path>`. */
function getFile(ctx: MethodContext): unknown {
  const fileId = optionalString(ctx.params, "file_id");
  const file = fileId ? ctx.store.files.get(fileId) : undefined;
  if (!file) throw badRequest("invalid file_id");
  if (file.data.length > DOWNLOAD_LIMIT) throw badRequest("file is too big");
  return { file_id: file.file_id, file_unique_id: file.file_unique_id, file_size: file.data.length, file_path: file.file_path };
}

export const mediaMethods: Record<string, MethodHandler> = {
  sendPhoto: sendMedia("photo", "sendPhoto"),
  sendDocument: sendMedia("document", "sendDocument"),
  sendAudio: sendMedia("audio", "sendAudio"),
  sendVoice: sendMedia("voice", "sendVoice"),
  sendVideo: sendMedia("video", "sendVideo"),
  sendAnimation: sendMedia("animation", "sendAnimation"),
  sendMediaGroup,
  editMessageCaption,
  getFile,
};
