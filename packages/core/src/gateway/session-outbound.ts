import {
  type AccountSession,
  type ChannelCapabilities,
  type ChannelOutbound,
  PermanentSendError,
  TransientSendError,
} from "@openclaw/plugin-sdk";

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

/** The session's method, or a permanent error when the plugin declared a power its session lacks. */
function method<K extends keyof ChannelOutbound>(session: AccountSession, name: K): NonNullable<ChannelOutbound[K]> {
  const fn = session[name];
  if (typeof fn !== "function") {
    throw new PermanentSendError(`the channel declares the power for ${String(name)} but its session has no ${String(name)}`);
  }
  return fn.bind(session) as NonNullable<ChannelOutbound[K]>;
}

/**
 * The sending side of an account that stays valid across reconnects: each call goes to the
 * session connected at that moment, and a call made before the first session or while the
 * account reconnects waits for the next one (at most `waitMs`, then a retryable error). The
 * optional methods present follow the channel's declared capabilities (edit, delete, media,
 * typing, nativeStream), so callers can test for a power with `if (outbound.editText)` before any
 * session exists.
 */
export function sessionOutbound(capabilities: ChannelCapabilities, source: SessionSource, waitMs = RECONNECT_WAIT_MS): ChannelOutbound {
  const session = (signal?: AbortSignal) => waitFor(source, waitMs, signal);
  const out: ChannelOutbound = {
    sendText: async (target, text, options) => method(await session(options.signal), "sendText")(target, text, options),
  };
  if (capabilities.edit)
    out.editText = async (target, id, text, options) => method(await session(options.signal), "editText")(target, id, text, options);
  if (capabilities.delete)
    out.deleteMessage = async (target, id, options) => method(await session(options.signal), "deleteMessage")(target, id, options);
  if (capabilities.media)
    out.sendMedia = async (target, media, options) => method(await session(options.signal), "sendMedia")(target, media, options);
  if (capabilities.typing) out.typing = async (target, options) => method(await session(options.signal), "typing")(target, options);
  if (capabilities.typing && capabilities.typingPersists)
    out.clearTyping = async (target, options) => method(await session(options.signal), "clearTyping")(target, options);
  if (capabilities.nativeStream)
    out.openStream = async (target, options) => method(await session(options.signal), "openStream")(target, options);
  return out;
}
