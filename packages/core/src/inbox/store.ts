// Rows of the inbox tables (state migration 5): one per inbound channel message, and the
// messages each reply attempt put in the chat.
import type { InboundMessage } from "@openclaw/plugin-sdk";
import type { StateDb } from "../state/index.js";
import { WriteBehind } from "./write-behind.js";

/** `pending` until its handling is finished; then `answered` (replied, or no reply was due) or `dropped`. */
export type InboxState = "pending" | "answered" | "dropped";

/** One recorded inbound message. */
export interface InboxRow {
  /** Arrival order across the whole inbox. */
  id: number;
  channel: string;
  accountId: string;
  chatId: string;
  messageId: string;
  /** The normalized message as the plugin handed it over. */
  message: InboundMessage;
  /** When core recorded it (ms since the epoch). */
  receivedAt: number;
  state: InboxState;
  /** Why it is answered or dropped (e.g. "replied", "pairing code sent", "cap"). */
  reason?: string;
  /** 1 for the first handling; each replay after a restart adds one. */
  attempts: number;
  /** Set when a run that answers this message began (its reply is this message's own). */
  startedAt?: number;
}

/** A message a reply attempt sent, as the user sees it now. */
export interface ReplyMessage {
  seq: number;
  messageId: string;
  text: string;
}

interface Row {
  id: number;
  channel: string;
  account_id: string;
  chat_id: string;
  message_id: string;
  message_json: string;
  received_at: number;
  state: string;
  reason: string | null;
  attempts: number;
  started_at: number | null;
}

const COLUMNS = "id, channel, account_id, chat_id, message_id, message_json, received_at, state, reason, attempts, started_at";

function toRow(r: Row): InboxRow {
  return {
    id: r.id,
    channel: r.channel,
    accountId: r.account_id,
    chatId: r.chat_id,
    messageId: r.message_id,
    message: JSON.parse(r.message_json) as InboundMessage,
    receivedAt: r.received_at,
    state: r.state as InboxState,
    ...(r.reason !== null ? { reason: r.reason } : {}),
    attempts: r.attempts,
    ...(r.started_at !== null ? { startedAt: r.started_at } : {}),
  };
}

/**
 * The inbox in the gateway's state database. A message is identified by channel, account, chat
 * and platform message id (some platforms number messages per chat).
 *
 * What the platform or the user will act on is committed (WAL) when the call returns: a recorded
 * message (`record`, before the platform is told it arrived), the messages a reply put in the
 * chat (`addReplyMessage`, `updateReplyMessage`, `deleteReplyMessage`), a new attempt. The
 * bookkeeping of a handling (`markStarted`, `settle`) is committed with the next of those, or at
 * the next `setImmediate`, whichever comes first; reads see it at once. A crash loses at most the
 * bookkeeping of the last event-loop pass, as if it had come a moment earlier: the message is
 * then handled again at the next start, which continues its recorded turn and reply.
 */
export class InboxStore {
  private readonly q;
  private readonly writes: WriteBehind;

  /** `onError` hears of a queued bookkeeping write that failed after the call that queued it returned. */
  constructor(
    db: StateDb,
    private readonly now: () => number = Date.now,
    onError: (err: unknown) => void = (err) => process.emitWarning(`inbox: ${(err as Error).message}`),
  ) {
    this.writes = new WriteBehind(db, onError);
    this.q = {
      insert: db.prepare(
        `INSERT INTO inbox (channel, account_id, chat_id, message_id, message_json, received_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (channel, account_id, chat_id, message_id) DO NOTHING`,
      ),
      get: db.prepare<[number], Row>(`SELECT ${COLUMNS} FROM inbox WHERE id = ?`),
      find: db.prepare<[string, string, string, string], Row>(
        `SELECT ${COLUMNS} FROM inbox WHERE channel = ? AND account_id = ? AND chat_id = ? AND message_id = ?`,
      ),
      pending: db.prepare<[], Row>(`SELECT ${COLUMNS} FROM inbox WHERE state = 'pending' ORDER BY id`),
      started: db.prepare<[number, number]>("UPDATE inbox SET started_at = ? WHERE id = ? AND started_at IS NULL"),
      attempt: db.prepare<[number]>("UPDATE inbox SET attempts = attempts + 1 WHERE id = ? AND state = 'pending'"),
      settle: db.prepare<[string, string, number, number]>(
        "UPDATE inbox SET state = ?, reason = ?, settled_at = ? WHERE id = ? AND state = 'pending'",
      ),
      prune: db.prepare<[number]>("DELETE FROM inbox WHERE state <> 'pending' AND settled_at < ?"),
      replies: db.prepare<[number], { seq: number; message_id: string; text: string }>(
        "SELECT seq, message_id, text FROM inbox_reply_messages WHERE inbox_id = ? AND deleted = 0 ORDER BY seq",
      ),
      addReply: db.prepare<[number, number, string, string, number]>(
        `INSERT INTO inbox_reply_messages (inbox_id, seq, message_id, text, updated_at)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM inbox_reply_messages WHERE inbox_id = ?), ?, ?, ?)`,
      ),
      replyText: db.prepare<[string, number, number, string]>(
        "UPDATE inbox_reply_messages SET text = ?, updated_at = ? WHERE inbox_id = ? AND message_id = ?",
      ),
      replyDeleted: db.prepare<[number, number, string]>(
        "UPDATE inbox_reply_messages SET deleted = 1, updated_at = ? WHERE inbox_id = ? AND message_id = ?",
      ),
    };
  }

  /**
   * Records an inbound message; returns its row, or undefined when the inbox already has it (a
   * platform delivering it again), whatever its state.
   */
  record(message: InboundMessage): InboxRow | undefined {
    const json = JSON.stringify(message);
    const receivedAt = this.now();
    const result = this.writes.now(() =>
      this.q.insert.run(message.channel, message.accountId, message.chat.id, message.messageId, json, receivedAt),
    );
    if (result.changes === 0) return undefined;
    // The row as inserted (column defaults: pending, first attempt), without reading it back.
    return toRow({
      id: Number(result.lastInsertRowid),
      channel: message.channel,
      account_id: message.accountId,
      chat_id: message.chat.id,
      message_id: message.messageId,
      message_json: json,
      received_at: receivedAt,
      state: "pending",
      reason: null,
      attempts: 1,
      started_at: null,
    });
  }

  get(id: number): InboxRow | undefined {
    this.writes.flush();
    const row = this.q.get.get(id);
    return row ? toRow(row) : undefined;
  }

  /** The row of a message, if recorded. */
  find(channel: string, accountId: string, chatId: string, messageId: string): InboxRow | undefined {
    this.writes.flush();
    const row = this.q.find.get(channel, accountId, chatId, messageId);
    return row ? toRow(row) : undefined;
  }

  /** Messages not answered yet, in arrival order. */
  pending(): InboxRow[] {
    this.writes.flush();
    return this.q.pending.all().map(toRow);
  }

  /** Notes that a run answering this message began (the first time only). */
  markStarted(id: number): void {
    const at = this.now();
    this.writes.later(() => this.q.started.run(at, id));
  }

  /** Counts one more handling of a pending message; returns the attempt number. */
  beginAttempt(id: number): number {
    this.writes.now(() => this.q.attempt.run(id));
    return this.get(id)?.attempts ?? 1;
  }

  /** Ends a pending message's handling; a message already settled keeps its first outcome. */
  settle(id: number, state: Exclude<InboxState, "pending">, reason: string): void {
    const at = this.now();
    this.writes.later(() => this.q.settle.run(state, reason, at, id));
  }

  /** Forgets settled messages older than `olderThanMs` (default 7 days); pending ones stay. */
  prune(olderThanMs = 7 * 24 * 3600_000): number {
    return this.writes.now(() => this.q.prune.run(this.now() - olderThanMs)).changes;
  }

  /** What earlier reply attempts of a message left in the chat, oldest first (deleted ones excluded). */
  replyMessages(id: number): ReplyMessage[] {
    this.writes.flush();
    return this.q.replies.all(id).map((r) => ({ seq: r.seq, messageId: r.message_id, text: r.text }));
  }

  /** Records a message a reply sent (right after the platform accepted it). */
  addReplyMessage(id: number, messageId: string, text: string): void {
    this.writes.now(() => this.q.addReply.run(id, id, messageId, text, this.now()));
  }

  /** Records the text a reply message shows after an edit. */
  updateReplyMessage(id: number, messageId: string, text: string): void {
    this.writes.now(() => this.q.replyText.run(text, this.now(), id, messageId));
  }

  /** Records that a reply message was deleted. */
  deleteReplyMessage(id: number, messageId: string): void {
    this.writes.now(() => this.q.replyDeleted.run(this.now(), id, messageId));
  }

  /** Commits the queued bookkeeping now (before the state database closes). */
  flush(): void {
    this.writes.flush();
  }
}
