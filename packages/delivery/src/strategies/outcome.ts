// What one reply's delivery did, recorded at the one seam every call of the reply passes: the
// outbound, wrapped per reply.
import type { ChannelOutbound, NativeStream, SentMessage } from "@openclaw/plugin-sdk";
import { sentIds } from "../ledger.js";
import type { DeliveryKind, DeliveryOutcome } from "./types.js";

/** Internal: collects a reply's outcome; `wrap` returns the outbound the strategy sends through. */
export class OutcomeRecorder {
  readonly counts: DeliveryOutcome["counts"] = { sends: 0, edits: 0, deletes: 0, typing: 0, streamUpdates: 0 };
  readonly fallbacks: string[] = [];
  readonly errors: string[] = [];
  status: DeliveryOutcome["status"] = "aborted";
  readonly #ids: string[] = [];
  readonly #deleted = new Set<string>();

  /** The outbound with every successful call counted and every sent message's ids kept. */
  wrap(inner: ChannelOutbound): ChannelOutbound {
    const sent = (value: SentMessage): SentMessage => {
      const ids = sentIds(value);
      this.counts.sends += ids.length;
      this.#ids.push(...ids);
      return value;
    };
    const outbound: ChannelOutbound = { sendText: async (...args) => sent(await inner.sendText(...args)) };
    if (inner.editText) {
      const edit = inner.editText.bind(inner);
      outbound.editText = async (...args) => {
        await edit(...args);
        this.counts.edits += 1;
      };
    }
    if (inner.deleteMessage) {
      const del = inner.deleteMessage.bind(inner);
      outbound.deleteMessage = async (target, messageId, options) => {
        await del(target, messageId, options);
        this.counts.deletes += 1;
        this.#deleted.add(messageId);
      };
    }
    if (inner.typing) {
      const typing = inner.typing.bind(inner);
      outbound.typing = async (...args) => {
        await typing(...args);
        this.counts.typing += 1;
      };
    }
    if (inner.clearTyping) outbound.clearTyping = inner.clearTyping.bind(inner);
    if (inner.sendMedia) {
      const media = inner.sendMedia.bind(inner);
      outbound.sendMedia = async (...args) => sent(await media(...args));
    }
    if (inner.openStream) {
      const open = inner.openStream.bind(inner);
      outbound.openStream = async (...args) => {
        const stream = await open(...args);
        return stream === null ? null : this.#wrapStream(stream, sent);
      };
    }
    return outbound;
  }

  /** The outcome so far. */
  outcome(kind: DeliveryKind): DeliveryOutcome {
    return {
      kind,
      status: this.errors.length > 0 && this.status === "delivered" ? "failed" : this.status,
      messageIds: this.#ids.filter((id) => !this.#deleted.has(id)),
      counts: { ...this.counts },
      fallbacks: [...this.fallbacks],
      errors: [...this.errors],
    };
  }

  #wrapStream(stream: NativeStream, sent: (value: SentMessage) => SentMessage): NativeStream {
    return {
      update: async (text) => {
        await stream.update(text);
        this.counts.streamUpdates += 1;
      },
      finish: async (finalText) => sent(await stream.finish(finalText)),
      abort: (reason) => stream.abort(reason),
    };
  }
}
