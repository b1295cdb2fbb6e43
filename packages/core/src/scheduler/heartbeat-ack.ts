// The heartbeat's acknowledgement token: a reply that only says "nothing to report" is not delivered.

/** The token a heartbeat reply starts or ends with when nothing needs attention. */
export const HEARTBEAT_OK = "HEARTBEAT_OK";

/** What to do with a heartbeat reply. */
export interface HeartbeatReply {
  /** False when the reply is only the acknowledgement: deliver nothing. */
  deliver: boolean;
  /** The reply without the token (what is delivered). */
  text: string;
}

// Markdown a model may wrap the token in: **HEARTBEAT_OK**, `HEARTBEAT_OK`, HEARTBEAT_OK.
const WRAP = "[*_`~\\s]*";
const AT_START = new RegExp(`^${WRAP}${HEARTBEAT_OK}${WRAP}[.!]?`);
const AT_END = new RegExp(`${WRAP}${HEARTBEAT_OK}${WRAP}[.!]?${WRAP}$`);

/**
 * Reads a heartbeat reply. The token counts at the start or at the end of the reply (bold,
 * italic or code markup around it is ignored, as is a trailing "." or "!"); in the middle it
 * is ordinary text. When the token is there and what remains is at most `ackMaxChars`
 * characters (after trimming), the reply is an acknowledgement and `deliver` is false. Otherwise
 * the reply is delivered without the token. A reply without the token is delivered as it is;
 * an empty reply is not.
 */
export function readHeartbeatReply(reply: string, ackMaxChars: number): HeartbeatReply {
  const trimmed = reply.trim();
  let rest = trimmed;
  let found = false;
  const start = AT_START.exec(rest);
  if (start) {
    rest = rest.slice(start[0].length);
    found = true;
  }
  const end = AT_END.exec(rest);
  if (end) {
    rest = rest.slice(0, end.index);
    found = true;
  }
  rest = rest.trim();
  if (!found) return { deliver: trimmed !== "", text: trimmed };
  return { deliver: rest.length > ackMaxChars, text: rest };
}
