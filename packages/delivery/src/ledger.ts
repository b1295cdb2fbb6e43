// Exactly-once delivery of a final reply across retries and restarts: every delivered part is
// recorded, so a second attempt resumes at the first part that was not sent.
import type { SentMessage } from "@openclaw/plugin-sdk";

/**
 * What is known about a delivery when it begins. A durable ledger stores it so that a delivery
 * cut short by a restart can be finished from the ledger alone.
 */
export interface DeliveryInfo {
  /** The parts (messages) of the reply, in order. */
  chunks: readonly string[];
  /** The channel id, e.g. `"telegram"`. */
  channel?: string;
  /** The account that sends the reply. */
  accountId?: string;
  /** Where the reply goes (an `OutboundTarget`, kept as JSON-able data). */
  target?: unknown;
  /** The inbound message the reply answers (`SendOptions.inReplyTo`), so a resumed delivery carries it too. */
  inReplyTo?: string;
}

/** The state of a delivery when it (re)starts. */
export interface DeliveryBegin {
  /** True when every part was delivered before: send nothing. */
  alreadyDelivered: boolean;
  /** The message ids of each part delivered so far, by part index (several when the plugin split a part). */
  parts: string[][];
  /** Every message id of the parts delivered so far, in order. */
  messageIds: string[];
}

/**
 * Records which parts of a final reply were delivered. Core keeps a durable one (SQLite); the SDK
 * ships `InMemoryDeliveryLedger` for tests. Calls are synchronous so a record lands before the
 * next part is sent.
 */
export interface DeliveryLedger {
  /** Starts or resumes the delivery `key` (stable per reply, e.g. the run id). */
  begin(key: string, info: DeliveryInfo): DeliveryBegin;
  /** Records that part `index` was delivered as the messages `messageIds` (one, or every part of a split send). */
  recordPart(key: string, index: number, messageIds: readonly string[]): void;
  /** Marks the delivery complete: later `begin` calls answer `alreadyDelivered`. */
  complete(key: string): void;
}

interface LedgerEntry {
  info: DeliveryInfo;
  parts: string[][];
  complete: boolean;
}

/** A `DeliveryLedger` in memory (tests and one-shot CLI runs); forgets everything on restart. */
export class InMemoryDeliveryLedger implements DeliveryLedger {
  readonly #entries = new Map<string, LedgerEntry>();

  /** Starts or resumes `key`; the recorded parts are returned in index order. */
  begin(key: string, info: DeliveryInfo): DeliveryBegin {
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      this.#entries.set(key, { info, parts: [], complete: false });
      return { alreadyDelivered: false, parts: [], messageIds: [] };
    }
    return deliveryBegin(entry.complete, entry.parts);
  }

  /** Records part `index`; recording a key that never began starts it with unknown chunks. */
  recordPart(key: string, index: number, messageIds: readonly string[]): void {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = { info: { chunks: [] }, parts: [], complete: false };
      this.#entries.set(key, entry);
    }
    entry.parts[index] = [...messageIds];
  }

  /** Marks `key` complete. */
  complete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) this.#entries.set(key, { info: { chunks: [] }, parts: [], complete: true });
    else entry.complete = true;
  }

  /** The message ids recorded for each part of `key` (a copy), or undefined when it never began. */
  parts(key: string): string[][] | undefined {
    const entry = this.#entries.get(key);
    return entry === undefined ? undefined : entry.parts.map((ids) => [...ids]);
  }
}

/**
 * A `DeliveryBegin` from the ids recorded per part index: parts 0..n-1 that were all recorded count
 * (a hole ends them). For durable ledgers that keep the parts themselves.
 */
export function deliveryBegin(complete: boolean, recorded: readonly (readonly string[] | null | undefined)[]): DeliveryBegin {
  const parts: string[][] = [];
  for (const ids of recorded) {
    if (ids === undefined || ids === null || ids.length === 0) break;
    parts.push([...ids]);
  }
  return { alreadyDelivered: complete, parts, messageIds: parts.flat() };
}

/** Every id a send reported: all parts of a split send, else the one. */
export function sentIds(sent: SentMessage): string[] {
  return sent.messageIds !== undefined && sent.messageIds.length > 0 ? [...sent.messageIds] : [sent.messageId];
}

/** Arguments of `deliverFinal`. */
export interface DeliverFinalOptions {
  /** Where delivered parts are recorded (core passes its durable one). */
  ledger: DeliveryLedger;
  /** Stable per reply across retries and restarts (e.g. the run id). */
  key: string;
  /** The parts, produced the same way on every attempt (e.g. `chunkText` of the final text). */
  chunks: readonly string[];
  /**
   * Sends one part; `index` lets the plugin derive a per-part idempotency key. A part the plugin
   * split reports all its messages (`messageIds`); all are recorded.
   */
  send: (chunk: string, index: number) => Promise<SentMessage>;
  /** Extra details stored with the delivery (channel, account, target). */
  info?: Omit<DeliveryInfo, "chunks">;
}

/** What `deliverFinal` did. */
export interface DeliverFinalResult {
  /** Ids of every message of every part, in order (recorded ones from earlier attempts included). */
  messageIds: string[];
  /** The message ids of each part. */
  parts: string[][];
  /** Parts skipped because an earlier attempt delivered them. */
  skipped: number;
  /** True when the whole reply had been delivered before (nothing was sent). */
  alreadyDelivered: boolean;
}

/**
 * Sends `chunks` in order, recording each part (every message id of it) in the ledger as soon as
 * it is delivered, so a retry after a crash resumes at the first unsent part and never sends one
 * twice (a crash between a send and its record can repeat that single part; platforms that dedupe
 * by idempotency key avoid even that). A send error propagates; the parts before it stay recorded.
 * A part the plugin split and that failed half-way (`SendError.deliveredMessageIds`) is retried by
 * the send budget with the same idempotency key, and the plugin sends only its missing messages.
 */
export async function deliverFinal(options: DeliverFinalOptions): Promise<DeliverFinalResult> {
  const { ledger, key, chunks } = options;
  const begun = ledger.begin(key, { ...options.info, chunks });
  if (begun.alreadyDelivered) {
    return { messageIds: begun.messageIds, parts: begun.parts, skipped: begun.parts.length, alreadyDelivered: true };
  }
  const parts = begun.parts.slice(0, chunks.length);
  const skipped = parts.length;
  for (let index = parts.length; index < chunks.length; index++) {
    const ids = sentIds(await options.send(chunks[index]!, index));
    ledger.recordPart(key, index, ids);
    parts.push(ids);
  }
  ledger.complete(key);
  return { messageIds: parts.flat(), parts, skipped, alreadyDelivered: false };
}
