import { ok, type QQAnswer, qqError } from "./errors.js";
import { newId, type QQStore, type TargetKey } from "./store.js";
import type { FakeQQMessage } from "./types.js";

/** The platform's limit on text, markdown and stream content. */
export const CONTENT_LIMIT = 5000;

type Body = Record<string, any>;

/**
 * Checks `msg_id` / `msg_seq` of a send: msg_seq is required with msg_id; then the msg_id must be
 * an inbound message of this conversation, the (msg_id, msg_seq) pair unused and the msg_id's
 * passive replies not used up. Spends one passive reply when everything holds.
 */
export function takeReply(store: QQStore, target: TargetKey, body: Body): QQAnswer | undefined {
  if (body.msg_id === undefined || body.msg_id === null || body.msg_id === "") return undefined;
  if (typeof body.msg_seq !== "number" || !Number.isInteger(body.msg_seq))
    return qqError("requestInvalid", "msg_seq is required with msg_id");
  const refused = store.takePassive(target, String(body.msg_id), body.msg_seq);
  return refused ? qqError(refused) : undefined;
}

/** Checks text against the 5000-character limit (code points, as users count them). */
export function checkLength(text: string): QQAnswer | undefined {
  return [...text].length > CONTENT_LIMIT ? qqError("contentTooLong", `${[...text].length} characters`) : undefined;
}

function msgType(body: Body): number {
  if (typeof body.msg_type === "number") return body.msg_type;
  if (body.markdown) return 2;
  if (body.media) return 7;
  return 0;
}

function timestamp(): string {
  return new Date().toISOString();
}

/** Builds the recorded message for a send body, or the refusal. Spends nothing. */
function buildMessage(store: QQStore, target: TargetKey, body: Body): FakeQQMessage | QQAnswer {
  const type = msgType(body);
  const base = { id: newId() };
  if (type === 0) {
    const content = typeof body.content === "string" ? body.content : "";
    if (!content.trim()) return qqError("emptyMessage");
    const message: FakeQQMessage = { ...base, kind: "text", content };
    const quoted = body.message_reference?.message_id;
    if (typeof quoted === "string") message.quoted = quoted;
    return checkLength(content) ?? message;
  }
  if (type === 2) {
    const content = typeof body.markdown?.content === "string" ? body.markdown.content : "";
    if (!content.trim()) return qqError("markdownEmpty");
    return checkLength(content) ?? { ...base, kind: "markdown", content };
  }
  if (type === 7) {
    const fileInfo = body.media?.file_info;
    const file = typeof fileInfo === "string" ? store.file(fileInfo) : undefined;
    if (!file || file.target !== target) return qqError("badFileInfo");
    const media: NonNullable<FakeQQMessage["media"]> = { fileType: file.fileType, bytes: file.bytes };
    if (file.fileName !== undefined) media.fileName = file.fileName;
    // A file message may carry text with it (shown under the file); "" when it has none.
    const caption = typeof body.content === "string" ? body.content : "";
    return checkLength(caption) ?? { ...base, kind: "media", content: caption, media };
  }
  return qqError("badMsgType", `msg_type ${type}`);
}

/** `POST .../messages` for any target: typing (C2C), text, markdown or media. */
export function sendMessage(store: QQStore, target: TargetKey, body: unknown): QQAnswer {
  if (!body || typeof body !== "object") return qqError("requestInvalid", "body must be a JSON object");
  const b = body as Body;
  if (msgType(b) === 6) return sendTyping(store, target, b);
  const built = buildMessage(store, target, b);
  if (!("kind" in built)) return built;
  const refused = takeReply(store, target, b);
  if (refused) return refused;
  if (b.msg_id) built.replyTo = String(b.msg_id);
  if (typeof b.msg_seq === "number") built.msgSeq = b.msg_seq;
  store.addSent(target, built);
  return ok({ id: built.id, timestamp: timestamp(), ext_info: { ref_idx: `REFIDX_${newId("")}` } });
}

/** msg_type 6 `input_notify`: C2C only, a passive reply (needs msg_id). */
function sendTyping(store: QQStore, target: TargetKey, body: Body): QQAnswer {
  if (!target.startsWith("c2c:")) return qqError("badMsgType", "input_notify is only for C2C");
  if (typeof body.input_notify?.input_type !== "number") return qqError("requestInvalid", "input_notify.input_type is required");
  if (!body.msg_id) return qqError("requestInvalid", "input_notify needs msg_id");
  const refused = takeReply(store, target, body);
  if (refused) return refused;
  store.addTyping(target.slice("c2c:".length));
  return ok({ id: newId(), timestamp: timestamp() });
}
