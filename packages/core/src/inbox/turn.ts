// One handling (attempt) of one inbox message: what the pipeline asks of it while the message
// goes through access, the queue and delivery.
import type { ChannelOutbound, InboundMessage } from "@openclaw/plugin-sdk";
import type { AgentEvent, TurnResult } from "../agent/index.js";
import type { SubmitOutcome } from "../queue/index.js";
import { replyOutbound, type ReplyOutbound } from "./reply-outbound.js";
import type { InboxRow, InboxState, InboxStore } from "./store.js";

/** How a handling ended: settled (`answered` / `dropped`), or `pending` to be handled at the next start. */
export interface InboxVerdict {
  state: InboxState;
  reason: string;
}

/** The key a channel message is known by in transcripts and the inbox: `<channel>:<account>:<chat>:<message id>`. */
export function inboxKeyOf(message: Pick<InboundMessage, "channel" | "accountId" | "chat" | "messageId">): string {
  return `${message.channel}:${message.accountId}:${message.chat.id}:${message.messageId}`;
}

/** The reply key of a message's first handling; ledger and idempotency keys of its reply derive from it. */
export function replyKeyOf(message: Pick<InboundMessage, "channel" | "accountId" | "chat" | "messageId">): string {
  return `reply:${message.channel}:${message.accountId}:${message.chat.id}:${message.messageId}`;
}

/**
 * The reply key of attempt `attempt` (1 = the first handling). A replay gets a key of its own so
 * the delivery ledger does not skip parts by position that an interrupted attempt cut
 * differently; what that attempt showed is continued through the reply journal instead.
 */
export function attemptReplyKey(message: InboundMessage, attempt: number): string {
  return attempt <= 1 ? replyKeyOf(message) : `${replyKeyOf(message)}:r${attempt}`;
}

export interface InboxTurnOptions {
  attempt: number;
  /** Replay of a recorded turn: the text and keys its opening entry was recorded with. */
  resume?: { text: string; inboundKeys: readonly string[] };
  /** True once the gateway stops taking work (a run cut off then is handled again at the next start). */
  stopping: () => boolean;
}

/**
 * One attempt at handling an inbox message. The pipeline takes from it the reply key, the text
 * and inbox keys to submit, the outbound for the reply (recorded in the reply journal, continuing
 * what earlier attempts showed) and an event observer; it reports how the handling ended with
 * `verdict` or `dropped`.
 */
export class InboxTurn {
  readonly message: InboundMessage;
  readonly attempt: number;
  readonly replyKey: string;
  /** The text to hand to the queue instead of the message's own (a resumed turn), if any. */
  readonly text: string | undefined;
  readonly inboundKeys: readonly string[];
  /** Resolves when a run that answers this message began, or when the handling ended. */
  readonly started: Promise<void>;
  private markStarted!: () => void;
  private reply: ReplyOutbound | undefined;

  constructor(
    private readonly store: InboxStore,
    readonly row: InboxRow,
    private readonly options: InboxTurnOptions,
  ) {
    this.message = row.message;
    this.attempt = options.attempt;
    this.replyKey = attemptReplyKey(row.message, options.attempt);
    this.text = options.resume?.text;
    this.inboundKeys = options.resume?.inboundKeys ?? [inboxKeyOf(row.message)];
    this.started = new Promise<void>((resolve) => (this.markStarted = resolve));
  }

  /** Wraps the reply's event handler: notes in the inbox when the run answering this message starts. */
  observe(onEvent: (event: AgentEvent) => void): (event: AgentEvent) => void {
    return (event) => {
      if (event.type === "run_start") {
        this.store.markStarted(this.row.id);
        this.markStarted();
      }
      onEvent(event);
    };
  }

  /** The outbound this attempt's reply sends through (see `replyOutbound`). */
  outbound(inner: ChannelOutbound): ChannelOutbound {
    const id = this.row.id;
    this.reply = replyOutbound(
      inner,
      {
        added: (messageId, text) => this.store.addReplyMessage(id, messageId, text),
        edited: (messageId, text) => this.store.updateReplyMessage(id, messageId, text),
        deleted: (messageId) => this.store.deleteReplyMessage(id, messageId),
      },
      this.attempt > 1 ? this.store.replyMessages(id) : [],
    );
    return this.reply;
  }

  /** The message gets no reply by policy (access), with the reason. */
  dropped(reason: string): InboxVerdict {
    return { state: "dropped", reason };
  }

  /**
   * What the queue's outcome means for this message. A message the queue did not take, or whose
   * run was cut off, because the gateway is stopping stays pending; a full queue drops it; every
   * other end (replied, answered by the run it joined, cancelled by an interrupt or abort, a
   * command) settles it.
   */
  verdict(outcome: SubmitOutcome, result?: TurnResult): InboxVerdict {
    const stopping = this.options.stopping();
    const waitForRestart: InboxVerdict = { state: "pending", reason: "the gateway stopped before it was answered" };
    switch (outcome.kind) {
      case "command":
        return { state: "answered", reason: "command answered" };
      case "dropped":
        return outcome.reason === "closed" ? waitForRestart : { state: "dropped", reason: `queue full (${outcome.reason})` };
      case "cancelled":
        return outcome.reason === "closed" || stopping ? waitForRestart : { state: "answered", reason: `cancelled (${outcome.reason})` };
      default:
        break;
    }
    const turn = outcome.kind === "ran" ? outcome.result : result;
    if ((!turn || turn.status === "aborted") && stopping) return waitForRestart;
    if (!turn) return { state: "answered", reason: "cancelled before it ran" };
    if (turn.status === "aborted") return { state: "answered", reason: "run aborted" };
    return {
      state: "answered",
      reason: outcome.kind === "ran" ? `replied (${turn.status})` : `answered by the run it joined (${outcome.kind})`,
    };
  }

  /** Ends the attempt: settles the row (unless pending) after removing what earlier attempts left over. */
  async settle(verdict: InboxVerdict, signal: AbortSignal): Promise<void> {
    this.markStarted();
    if (verdict.state === "pending") return;
    if (verdict.state === "answered" && this.reply) await this.reply.dropLeftovers({ chat: this.message.chat }, signal);
    this.store.settle(this.row.id, verdict.state, verdict.reason);
  }

  /** Releases waiters on `started` without settling (the handling failed). */
  abandon(): void {
    this.markStarted();
  }
}
