/**
 * Error answers of the fake QQ Bot platform: HTTP status plus a `{code, message}` body.
 *
 * Codes marked "doc" are from the platform's OpenAPI error table (bot.q.qq.com, api-v2
 * openapi/error); "observed" ones are what bots report getting from the live API; "plausible"
 * ones are the fake's own choice where neither was found.
 */
export const QQ_ERRORS = {
  /** observed: a missing, unknown or expired access token. */
  tokenInvalid: { status: 401, code: 11244, message: "token not exist or expire" },
  /** observed: the token endpoint refusing an appId/clientSecret pair. */
  badSecret: { status: 401, code: 100016, message: "invalid appid or secret" },
  /** doc 12002 RequestInvalid: the body is not JSON or misses a required field. */
  requestInvalid: { status: 400, code: 12002, message: "request invalid" },
  /** doc 50006: nothing to send. */
  emptyMessage: { status: 400, code: 50006, message: "cannot send empty message" },
  /** plausible: content (text, markdown or stream content_raw) over 5000 characters. */
  contentTooLong: { status: 400, code: 50035, message: "content exceeds 5000 characters" },
  /** doc 50041: markdown without content. */
  markdownEmpty: { status: 400, code: 50041, message: "markdown content is empty" },
  /** doc 304026: the msg_id is not an inbound message of this conversation. */
  badMsgId: { status: 400, code: 304026, message: "msg_id is invalid" },
  /** observed: the same (msg_id, msg_seq) was already used. */
  duplicate: { status: 400, code: 40054005, message: "message deduplicated, check msg_seq" },
  /** observed: passive replies to this msg_id are used up. */
  replyLimit: { status: 400, code: 22009, message: "msg limit exceed" },
  /** plausible: msg_type the fake does not take (or typing outside C2C). */
  badMsgType: { status: 400, code: 12002, message: "unsupported msg_type" },
  /** plausible: media.file_info the files endpoint never issued for this target. */
  badFileInfo: { status: 400, code: 304016, message: "file_info is invalid" },
  /** doc 304021 GET_FILE: the url of a files upload could not be fetched. */
  fetchFailed: { status: 400, code: 304021, message: "failed to download file from url" },
  /** plausible: a stream chunk that breaks the session rules (unknown id, index, msg_seq, closed). */
  streamInvalid: { status: 400, code: 40034030, message: "stream message invalid" },
  /** doc 404: no such API. */
  notFound: { status: 404, code: 404, message: "api not found" },
} as const;

export type QQErrorKind = keyof typeof QQ_ERRORS;

/** An answer the fake sends back. */
export interface QQAnswer {
  status: number;
  body: unknown;
}

/** The answer for an error kind; `detail` is appended to the message. */
export function qqError(kind: QQErrorKind, detail?: string): QQAnswer {
  const { status, code, message } = QQ_ERRORS[kind];
  return { status, body: { code, message: detail ? `${message}: ${detail}` : message } };
}

/** A 200 answer. */
export function ok(body: unknown): QQAnswer {
  return { status: 200, body };
}
