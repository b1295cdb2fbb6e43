// Feishu's response envelope `{code, msg, data}` and the platform error codes the fake answers with.

/** One HTTP answer of the fake: status, JSON body, extra headers. */
export interface FeishuAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Raw bytes instead of JSON (resource downloads). */
  bytes?: Uint8Array;
}

/**
 * Error codes the fake uses, with the platform's HTTP status and message; each marked doc (the Open
 * Platform's API reference) or plausible (the fake's best guess). Business errors come back as
 * HTTP 400; the gateway-wide frequency limit 99991400 as HTTP 429 with `x-ogw-ratelimit-reset`.
 */
export const FEISHU_ERRORS = {
  /** doc: Request body or parameters invalid. */
  invalidParam: { code: 99992402, status: 400, msg: "field validation failed" },
  /** doc: app_id / app_secret wrong on the token endpoint. */
  badCredentials: { code: 10014, status: 400, msg: "app secret invalid" },
  /** doc: Missing, unknown or expired tenant_access_token. */
  tokenInvalid: { code: 99991663, status: 400, msg: "Invalid access token for authorization. Please make a request with token attached." },
  /** doc: Gateway-wide frequency limit. */
  rateLimited: { code: 99991400, status: 429, msg: "request trigger frequency limit" },
  /** doc: Per-chat message rate limit. */
  chatRateLimited: { code: 230020, status: 400, msg: "This operation triggers the frequency limit." },
  /** doc: Tenant-level message service rate limit. */
  messageRateLimited: { code: 11232, status: 400, msg: "create message service trigger rate limit" },
  /** doc: The message does not exist (or is not the bot's to change). */
  messageNotFound: { code: 230011, status: 400, msg: "The message was withdrawn." },
  /** plausible: Edit of a message type that cannot be edited this way. */
  messageNotEditable: { code: 230001, status: 400, msg: "Your request contains an invalid request parameter." },
  /** plausible: The reaction does not exist on that message. */
  reactionNotFound: { code: 231003, status: 400, msg: "The reaction does not exist." },
  /** plausible: The resource key is unknown for that message. */
  resourceNotFound: { code: 234003, status: 400, msg: "File not in msg." },
  /** doc: CardKit: the card entity does not exist. */
  cardNotFound: { code: 200740, status: 400, msg: "The card entity does not exist" },
  /** doc: CardKit: `sequence` not greater than the card's last one. */
  cardSequence: { code: 300317, status: 400, msg: "The sequence number for operating on the card did not increment consecutively" },
  /** plausible: CardKit: the element does not exist in the card. */
  cardElementNotFound: { code: 300309, status: 400, msg: "The element_id does not exist" },
  /** plausible: the card entity was already sent in a message (an entity is sent once). */
  cardAlreadySent: { code: 230099, status: 400, msg: "Failed to create card content, ext=card entity has been sent" },
  /** doc: CardKit: the card JSON over 30 KB. */
  cardTooLarge: { code: 200860, status: 400, msg: "Card content exceeds limit." },
  /** doc: Message content over its limit (30 KB for post and interactive, 150 KB for text). */
  contentTooLarge: { code: 230025, status: 400, msg: "The message content exceeds the length limit." },
  /** plausible: Unknown path. */
  notFound: { code: 404, status: 404, msg: "404 page not found" },
} as const;

export type FeishuErrorName = keyof typeof FEISHU_ERRORS;

/** A success envelope: `{code: 0, msg: "success", data}`. */
export function ok(data: unknown = {}): FeishuAnswer {
  return { status: 200, body: { code: 0, msg: "success", data } };
}

/** A named platform error in the envelope, with its HTTP status. */
export function feishuError(name: FeishuErrorName, detail?: string): FeishuAnswer {
  const e = FEISHU_ERRORS[name];
  return errorAnswer(e.code, detail ? `${e.msg}: ${detail}` : e.msg, e.status);
}

/** Any code in the envelope. The frequency limit (99991400) gets the gateway's reset header. */
export function errorAnswer(code: number, msg: string, status: number): FeishuAnswer {
  const answer: FeishuAnswer = { status, body: { code, msg, error: { log_id: `fake-${Date.now()}` } } };
  if (code === FEISHU_ERRORS.rateLimited.code) answer.headers = { "x-ogw-ratelimit-limit": "50", "x-ogw-ratelimit-reset": "1" };
  return answer;
}

/** The HTTP status the platform uses for an error code: 429 for 99991400, else 400. */
export function statusForCode(code: number): number {
  return code === FEISHU_ERRORS.rateLimited.code ? 429 : 400;
}
