/**
 * What the gateway's close codes ask of the client (the platform's table): refresh the token,
 * start a new session, wait out a rate limit, stop for good, or just reconnect and resume.
 */

/** The client's reaction to a closed gateway connection. */
export type CloseAction =
  /** The token was refused: fetch a new one, then resume. */
  | "refresh-token"
  /** The session cannot be resumed: fetch a new token and identify anew. */
  | "new-session"
  /** Identified too often: wait (60 s) before connecting again. */
  | "rate-limited"
  /** The bot may not connect (banned, offline): stop the account. */
  | "fatal"
  /** The platform ended the connection normally: the account stops (the host connects it again). */
  | "normal"
  /** Anything else (a dropped connection): reconnect with backoff and resume. */
  | "resume";

/** The action for a close code. */
export function closeAction(code: number): CloseAction {
  if (code === 4004) return "refresh-token";
  if (code === 4006 || code === 4007 || code === 4009 || (code >= 4900 && code <= 4913)) return "new-session";
  if (code === 4008) return "rate-limited";
  if (code === 4914 || code === 4915) return "fatal";
  if (code === 1000) return "normal";
  return "resume";
}

/** Why a fatal code stops the account, in words for `openclaw channels status`. */
export function fatalReason(code: number): string {
  return code === 4914
    ? "the bot is offline or only allowed in the sandbox (close code 4914): publish it on the QQ open platform, or set channels.qqbot.sandbox: true for a bot in testing"
    : "the bot is banned (close code 4915): see the QQ open platform console (q.qq.com) for why";
}
