import { type AccountSession, type ChannelOutbound, TransientSendError } from "@openclaw/plugin-sdk";

/** Where the account's current session comes from; `undefined` while it is (re)connecting. */
export interface SessionSource {
  current(): AccountSession | undefined;
  /** Resolves with the next connected session, or rejects when the account stops. */
  next(signal: AbortSignal): Promise<AccountSession>;
}

/** How long a send waits for a reconnecting account before it fails as retryable (ms). */
export const RECONNECT_WAIT_MS = 30_000;

function waitFor(source: SessionSource, waitMs: number, signal: AbortSignal | undefined): Promise<AccountSession> {
  const now = source.current();
  if (now) return Promise.resolve(now);
  const timeout = AbortSignal.timeout(waitMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  return source.next(combined).catch((err: unknown) => {
    if (timeout.aborted)
      throw new TransientSendError(`the account is reconnecting (waited ${Math.round(waitMs / 1000)} s)`, { cause: err });
    throw err;
  });
}

/**
 * The sending side of an account that stays valid across reconnects: each call goes to the
 * session connected at that moment, and a call made while the account reconnects waits for the
 * next session (at most `waitMs`, then a retryable error). The optional methods present are
 * those of `shape` (the first session), so callers can test for a power with `if (outbound.editText)`.
 */
export function sessionOutbound(shape: AccountSession, source: SessionSource, waitMs = RECONNECT_WAIT_MS): ChannelOutbound {
  const session = (signal?: AbortSignal) => waitFor(source, waitMs, signal);
  const out: ChannelOutbound = {
    sendText: async (target, text, options) => (await session(options.signal)).sendText(target, text, options),
  };
  if (shape.editText)
    out.editText = async (target, id, text, options) => (await session(options.signal)).editText!(target, id, text, options);
  if (shape.deleteMessage)
    out.deleteMessage = async (target, id, options) => (await session(options.signal)).deleteMessage!(target, id, options);
  if (shape.sendMedia) out.sendMedia = async (target, media, options) => (await session(options.signal)).sendMedia!(target, media, options);
  if (shape.typing) out.typing = async (target, options) => (await session(options.signal)).typing!(target, options);
  if (shape.openStream) out.openStream = async (target, options) => (await session(options.signal)).openStream!(target, options);
  return out;
}
