import type { ChannelOutbound } from "@openclaw/plugin-sdk";

/**
 * Wraps an account's outbound side so that every call that succeeds calls `onSent` (which stamps
 * `lastOutboundAt`). Optional methods stay absent when the plugin does not have them, so callers
 * can still test for a capability with `if (outbound.editText)`.
 */
export function trackOutbound(outbound: ChannelOutbound, onSent: () => void): ChannelOutbound {
  const wrapped: ChannelOutbound = {
    sendText: async (...args) => {
      const sent = await outbound.sendText(...args);
      onSent();
      return sent;
    },
  };
  if (outbound.editText) {
    const edit = outbound.editText.bind(outbound);
    wrapped.editText = async (...args) => {
      await edit(...args);
      onSent();
    };
  }
  if (outbound.deleteMessage) wrapped.deleteMessage = outbound.deleteMessage.bind(outbound);
  if (outbound.sendMedia) {
    const send = outbound.sendMedia.bind(outbound);
    wrapped.sendMedia = async (...args) => {
      const sent = await send(...args);
      onSent();
      return sent;
    };
  }
  if (outbound.typing) wrapped.typing = outbound.typing.bind(outbound);
  if (outbound.clearTyping) wrapped.clearTyping = outbound.clearTyping.bind(outbound);
  if (outbound.openStream) {
    const open = outbound.openStream.bind(outbound);
    wrapped.openStream = async (...args) => {
      const stream = await open(...args);
      if (!stream) return stream;
      return {
        update: async (text) => {
          await stream.update(text);
          onSent();
        },
        finish: async (text) => {
          const sent = await stream.finish(text);
          onSent();
          return sent;
        },
        abort: (reason) => stream.abort(reason),
      };
    };
  }
  return wrapped;
}
