// An in-memory platform for delivery tests: it records every call, keeps each message's history,
// and can answer with rate limits, refused edits or network errors on demand.
import {
  PermanentSendError,
  RateLimitedError,
  type ChannelOutbound,
  type NativeStream,
  type OutboundTarget,
  type SendOptions,
  type SendPriority,
} from "@openclaw/plugin-sdk";
import type { FakeClock } from "./fake-clock.js";

/** Stream ops: "open" (openStream), "update", "finish", "abort" (the NativeStream methods). */
export type Op = "send" | "edit" | "delete" | "typing" | "open" | "update" | "finish" | "abort";

export interface RecordedCall {
  op: Op;
  at: number;
  messageId: string;
  text?: string;
  priority: SendPriority;
  /** False when the platform refused it (the call threw). */
  ok: boolean;
  /** The quoted message (`target.replyToMessageId`). */
  replyTo?: string;
  /** `SendOptions.inReplyTo`. */
  inReplyTo?: string;
}

export interface FakeMessage {
  id: string;
  /** Every text the message showed, in order (the first is the sent text). */
  history: string[];
  deleted: boolean;
}

export interface FakeOutboundOptions {
  canEdit?: boolean;
  canDelete?: boolean;
  /** Simulated time each call takes (default 0). */
  latencyMs?: number;
  /** The platform streams natively with these semantics (adds `openStream`). */
  nativeStream?: "replace" | "append";
}

export const TARGET: OutboundTarget = { chat: { kind: "direct", id: "chat-1" } };

export class FakePlatform {
  readonly calls: RecordedCall[] = [];
  readonly messages: FakeMessage[] = [];
  /** Every call before this time answers 429 with the time left as retry-after. */
  stormUntil = 0;
  /** Retry-after reported during a storm (default: the time left in it). */
  stormRetryAfterMs: number | undefined;
  /** Edits throw PermanentSendError("message can't be edited"). */
  refuseEdits = false;
  readonly #faults: Array<{ op: Op; error: () => Error }> = [];
  readonly #clock: FakeClock;
  readonly #latency: number;
  readonly outbound: ChannelOutbound;

  constructor(clock: FakeClock, options: FakeOutboundOptions = {}) {
    this.#clock = clock;
    this.#latency = options.latencyMs ?? 0;
    const outbound: ChannelOutbound = {
      sendText: (target, text, opts) => this.#call("send", target, text, opts, undefined),
    };
    if (options.canEdit !== false) {
      outbound.editText = async (target, messageId, text, opts) => {
        await this.#call("edit", target, text, opts, messageId);
      };
    }
    if (options.canDelete !== false) {
      outbound.deleteMessage = async (target, messageId, opts) => {
        await this.#call("delete", target, undefined, opts, messageId);
      };
    }
    outbound.typing = async (target, opts) => {
      await this.#call("typing", target, undefined, opts, "");
    };
    const mode = options.nativeStream;
    if (mode !== undefined) outbound.openStream = async (target, opts) => this.#openStream(mode, target, opts);
    this.outbound = outbound;
  }

  /** A stream message shows "" until its first update; `visible` leaves such messages out. */
  async #openStream(mode: "replace" | "append", target: OutboundTarget, opts: SendOptions): Promise<NativeStream> {
    const { messageId } = await this.#call("open", target, undefined, opts, undefined);
    const message: FakeMessage = { id: messageId, history: [""], deleted: false };
    this.messages.push(message);
    const apply = (text: string): void => {
      message.history.push(mode === "replace" ? text : message.history[message.history.length - 1]! + text);
    };
    const streamOpts = (priority: SendPriority): SendOptions => ({ ...opts, priority });
    return {
      update: async (text) => {
        await this.#call("update", target, text, streamOpts("preview"), messageId);
        apply(text);
      },
      finish: async (text) => {
        await this.#call("finish", target, text, streamOpts("final"), messageId);
        apply(text);
        return { messageId };
      },
      abort: async () => {
        await this.#call("abort", target, undefined, streamOpts("final"), messageId);
      },
    };
  }

  /** The next call of `op` throws `error()`. */
  failNext(op: Op, error: () => Error): void {
    this.#faults.push({ op, error });
  }

  /** Messages still in the chat, in the order they were sent, with their current text. */
  visible(): string[] {
    return this.messages
      .filter((m) => !m.deleted)
      .flatMap((m) => {
        const text = m.history[m.history.length - 1]!;
        return text === "" ? [] : [text];
      });
  }

  count(op: Op, ok = true): number {
    return this.calls.filter((c) => c.op === op && c.ok === ok).length;
  }

  async #call(op: Op, target: OutboundTarget, text: string | undefined, opts: SendOptions, messageId: string | undefined) {
    if (this.#latency > 0) await new Promise<void>((resolve) => this.#clock.setTimeout(resolve, this.#latency));
    const now = this.#clock.now();
    const id = messageId ?? `m${this.messages.length + 1}`;
    const record: RecordedCall = { op, at: now, messageId: id, priority: opts.priority, ok: false };
    if (text !== undefined) record.text = text;
    if (target.replyToMessageId !== undefined) record.replyTo = target.replyToMessageId;
    if (opts.inReplyTo !== undefined) record.inReplyTo = opts.inReplyTo;
    this.calls.push(record);
    const fault = this.#faults.findIndex((f) => f.op === op);
    if (fault >= 0) throw this.#faults.splice(fault, 1)[0]!.error();
    if (now < this.stormUntil) throw new RateLimitedError("Too Many Requests", this.stormRetryAfterMs ?? this.stormUntil - now);
    if (op === "edit" && this.refuseEdits) throw new PermanentSendError("Bad Request: message can't be edited");
    if (op === "send") {
      this.messages.push({ id, history: [text!], deleted: false });
    } else if (op === "edit" || op === "delete") {
      const message = this.messages.find((m) => m.id === id);
      if (message === undefined || message.deleted) throw new PermanentSendError(`message ${id} not found`);
      if (op === "edit") message.history.push(text!);
      else message.deleted = true;
    }
    record.ok = true;
    return { messageId: id };
  }
}

/**
 * Checks that the messages a user sees hold `finalText` exactly once, in order: each message is
 * the next piece of the text (whitespace around pieces may differ at a break). Returns a
 * description of the first mismatch, or null.
 */
export function reassemblyError(messages: readonly string[], finalText: string): string | null {
  let pos = 0;
  for (const [i, raw] of messages.entries()) {
    const message = raw.trim();
    while (pos < finalText.length && /\s/.test(finalText[pos]!)) pos++;
    if (!finalText.startsWith(message, pos)) {
      return `message ${i} ${JSON.stringify(message.slice(0, 60))}… does not continue the text at ${pos}: ${JSON.stringify(finalText.slice(pos, pos + 60))}`;
    }
    pos += message.length;
  }
  const rest = finalText.slice(pos);
  return rest.trim() === "" ? null : `text missing after ${pos}: ${JSON.stringify(rest.slice(0, 60))}`;
}

/** A message whose earlier versions are not prefixes of its final one showed text it later dropped. */
export function nonPrefixHistory(messages: readonly FakeMessage[]): string | null {
  for (const m of messages) {
    if (m.deleted) continue;
    const last = m.history[m.history.length - 1]!;
    for (const version of m.history) {
      if (!last.startsWith(version))
        return `message ${m.id} showed ${JSON.stringify(version.slice(-40))} which its final text does not start with`;
    }
  }
  return null;
}
