import { ok, type QQAnswer, qqError } from "./errors.js";
import { checkLength, takeReply } from "./messages.js";
import { newId, type QQStore } from "./store.js";
import type { FakeQQStream } from "./types.js";

/**
 * `POST /v2/users/{openid}/stream_messages`: C2C streaming in replace mode.
 *
 * The first chunk has index 0 and no `stream_msg_id`; it opens a session, spends one passive
 * reply of `msg_id` (with the usual msg_seq, duplicate and limit checks) and answers
 * `{id: <stream_msg_id>}`. Later chunks carry that `stream_msg_id`, the same `msg_id` and
 * `msg_seq`, and index last+1. A chunk with `input_state: 10` closes the session; later chunks
 * are refused. `content_raw` is the whole text so far (at most 5000 characters).
 */
export function streamChunk(store: QQStore, openid: string, body: unknown): QQAnswer {
  const b = (body ?? {}) as Record<string, any>;
  if (b.input_mode !== "replace") return qqError("requestInvalid", 'input_mode must be "replace"');
  if (b.input_state !== 1 && b.input_state !== 10) return qqError("requestInvalid", "input_state must be 1 or 10");
  if (b.content_type !== "markdown") return qqError("requestInvalid", 'content_type must be "markdown"');
  if (typeof b.content_raw !== "string") return qqError("requestInvalid", "content_raw is required");
  if (!b.msg_id) return qqError("requestInvalid", "msg_id is required");
  if (!Number.isInteger(b.index)) return qqError("requestInvalid", "index is required");
  const tooLong = checkLength(b.content_raw);
  if (tooLong) return tooLong;
  const chunk = { index: b.index as number, state: b.input_state as 1 | 10, contentRaw: b.content_raw as string };

  if (b.stream_msg_id === undefined || b.stream_msg_id === null || b.stream_msg_id === "") {
    if (chunk.index !== 0) return qqError("streamInvalid", "the first chunk has index 0 and no stream_msg_id");
    const refused = takeReply(store, `c2c:${openid}`, b);
    if (refused) return refused;
    const stream: FakeQQStream = {
      streamMsgId: newId("STREAM_"),
      msgId: String(b.msg_id),
      msgSeq: b.msg_seq,
      chunks: [chunk],
      done: chunk.state === 10,
      text: chunk.contentRaw,
    };
    store.addStream(openid, stream);
    return ok({ id: stream.streamMsgId, timestamp: new Date().toISOString() });
  }

  const found = store.stream(String(b.stream_msg_id));
  if (!found || found.openid !== openid) return qqError("streamInvalid", "unknown stream_msg_id");
  const { stream } = found;
  if (stream.done) return qqError("streamInvalid", "the stream is already closed (input_state 10)");
  if (String(b.msg_id) !== stream.msgId || b.msg_seq !== stream.msgSeq)
    return qqError("streamInvalid", "msg_id and msg_seq must stay those of the first chunk");
  const last = stream.chunks[stream.chunks.length - 1]!.index;
  if (chunk.index !== last + 1) return qqError("streamInvalid", `index must be ${last + 1}`);
  stream.chunks.push(chunk);
  stream.text = chunk.contentRaw;
  if (chunk.state === 10) stream.done = true;
  return ok({ id: stream.streamMsgId, timestamp: new Date().toISOString() });
}
