// The sending side one reply attempt of an inbox message uses: it remembers every message the
// reply puts in the chat, and a replay continues in the messages an interrupted attempt left.
import { PermanentSendError, type ChannelOutbound, type OutboundTarget, type SendOptions, type SentMessage } from "@openclaw/plugin-sdk";
import type { ReplyMessage } from "./store.js";

/** Where a reply's messages are remembered (the inbox row's journal). */
export interface ReplyJournal {
  added(messageId: string, text: string): void;
  edited(messageId: string, text: string): void;
  deleted(messageId: string): void;
}

/** A reply's outbound with what it adopted from earlier attempts. */
export interface ReplyOutbound extends ChannelOutbound {
  /**
   * Messages of earlier attempts that this attempt did not continue in; deletes them when the
   * channel can (they would show text of an interrupted answer next to the new one). Call once
   * the reply is complete.
   */
  dropLeftovers(target: OutboundTarget, signal: AbortSignal): Promise<void>;
}

const refusesEdit = (err: unknown): boolean =>
  err instanceof PermanentSendError || (err as { retryable?: unknown } | null)?.retryable === false;

/**
 * Wraps an account's outbound for one reply attempt. Every message sent is recorded with its
 * text, and every edit and delete updates the record. When `earlier` (the messages interrupted
 * attempts of the same reply left in the chat, oldest first) is not empty, the attempt's sends
 * continue in them, one each, in order: a send becomes an edit of the earlier message (nothing
 * at all when it already shows that text). So an answer whose preview was on screen when the
 * gateway was killed is finished in that message, and no text the user has seen appears twice.
 * A channel that cannot edit reuses an earlier message only when the text is the same; an edit
 * the platform refuses for good (the message is gone) falls back to a new message.
 */
export function replyOutbound(inner: ChannelOutbound, journal: ReplyJournal, earlier: readonly ReplyMessage[]): ReplyOutbound {
  const waiting = [...earlier];
  const skipped: ReplyMessage[] = [];

  const adopt = async (target: OutboundTarget, text: string, options: SendOptions): Promise<SentMessage | undefined> => {
    const old = waiting.shift();
    if (!old) return undefined;
    if (old.text === text) return { messageId: old.messageId };
    if (!inner.editText) {
      skipped.push(old);
      return undefined;
    }
    try {
      await inner.editText(target, old.messageId, text, options);
    } catch (err) {
      if (!refusesEdit(err)) {
        waiting.unshift(old); // retryable: the caller's budget tries this send again
        throw err;
      }
      skipped.push(old);
      return undefined;
    }
    journal.edited(old.messageId, text);
    return { messageId: old.messageId };
  };

  const outbound: ReplyOutbound = {
    async sendText(target, text, options) {
      const adopted = await adopt(target, text, options);
      if (adopted) return adopted;
      const sent = await inner.sendText(target, text, options);
      journal.added(sent.messageId, text);
      return sent;
    },
    async dropLeftovers(target, signal) {
      const leftovers = [...skipped.splice(0), ...waiting.splice(0)];
      if (!inner.deleteMessage) return;
      for (const old of leftovers) {
        try {
          await inner.deleteMessage(target, old.messageId, {
            signal,
            priority: "final",
            format: "plain",
            idempotencyKey: `inbox-leftover:${old.messageId}`,
          });
          journal.deleted(old.messageId);
        } catch {
          // it stays visible; nothing else to do
        }
      }
    },
  };
  if (inner.editText) {
    const edit = inner.editText.bind(inner);
    outbound.editText = async (target, messageId, text, options) => {
      await edit(target, messageId, text, options);
      journal.edited(messageId, text);
    };
  }
  if (inner.deleteMessage) {
    const del = inner.deleteMessage.bind(inner);
    outbound.deleteMessage = async (target, messageId, options) => {
      await del(target, messageId, options);
      journal.deleted(messageId);
    };
  }
  if (inner.sendMedia) outbound.sendMedia = inner.sendMedia.bind(inner);
  if (inner.typing) outbound.typing = inner.typing.bind(inner);
  if (inner.clearTyping) outbound.clearTyping = inner.clearTyping.bind(inner);
  if (inner.openStream) outbound.openStream = inner.openStream.bind(inner);
  return outbound;
}
