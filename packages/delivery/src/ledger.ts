// Exactly-once delivery of a final reply across retries and restarts: every delivered part is
// recorded, so a second attempt resumes at the first part that was not sent.

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
}

/** The state of a delivery when it (re)starts. */
export interface DeliveryBegin {
  /** True when every part was delivered before: send nothing. */
  alreadyDelivered: boolean;
  /** Message ids of the parts delivered so far, by part index (part i at index i). */
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
  /** Records that part `index` was delivered as `messageId`. */
  recordPart(key: string, index: number, messageId: string): void;
  /** Marks the delivery complete: later `begin` calls answer `alreadyDelivered`. */
  complete(key: string): void;
}

interface LedgerEntry {
  info: DeliveryInfo;
  parts: string[];
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
      return { alreadyDelivered: false, messageIds: [] };
    }
    return { alreadyDelivered: entry.complete, messageIds: recordedPrefix(entry.parts) };
  }

  /** Records part `index`; recording a key that never began starts it with unknown chunks. */
  recordPart(key: string, index: number, messageId: string): void {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      entry = { info: { chunks: [] }, parts: [], complete: false };
      this.#entries.set(key, entry);
    }
    entry.parts[index] = messageId;
  }

  /** Marks `key` complete. */
  complete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) this.#entries.set(key, { info: { chunks: [] }, parts: [], complete: true });
    else entry.complete = true;
  }

  /** The parts recorded for `key` (a copy), or undefined when it never began. */
  parts(key: string): string[] | undefined {
    const entry = this.#entries.get(key);
    return entry === undefined ? undefined : [...entry.parts];
  }
}

/** The ids of parts 0..n-1 that were all recorded (a hole ends the prefix). */
function recordedPrefix(parts: readonly (string | undefined)[]): string[] {
  const ids: string[] = [];
  for (const id of parts) {
    if (id === undefined) break;
    ids.push(id);
  }
  return ids;
}

/** Arguments of `deliverFinal`. */
export interface DeliverFinalOptions {
  /** Where delivered parts are recorded (core passes its durable one). */
  ledger: DeliveryLedger;
  /** Stable per reply across retries and restarts (e.g. the run id). */
  key: string;
  /** The parts, produced the same way on every attempt (e.g. `chunkText` of the final text). */
  chunks: readonly string[];
  /** Sends one part; `index` lets the plugin derive a per-part idempotency key. */
  send: (chunk: string, index: number) => Promise<{ messageId: string }>;
  /** Extra details stored with the delivery (channel, account, target). */
  info?: Omit<DeliveryInfo, "chunks">;
}

/** What `deliverFinal` did. */
export interface DeliverFinalResult {
  /** Ids of every part, in order (recorded ones from earlier attempts included). */
  messageIds: string[];
  /** Parts skipped because an earlier attempt delivered them. */
  skipped: number;
  /** True when the whole reply had been delivered before (nothing was sent). */
  alreadyDelivered: boolean;
}

/**
 * Sends `chunks` in order, recording each part in the ledger as soon as it is delivered, so a
 * retry after a crash resumes at the first unsent part and never sends one twice (a crash between
 * a send and its record can repeat that single part; platforms that dedupe by idempotency key
 * avoid even that). A send error propagates; the parts before it stay recorded.
 */
export async function deliverFinal(options: DeliverFinalOptions): Promise<DeliverFinalResult> {
  const { ledger, key, chunks } = options;
  const begun = ledger.begin(key, { ...options.info, chunks });
  if (begun.alreadyDelivered) return { messageIds: begun.messageIds, skipped: begun.messageIds.length, alreadyDelivered: true };
  const ids = begun.messageIds.slice(0, chunks.length);
  const skipped = ids.length;
  for (let index = ids.length; index < chunks.length; index++) {
    const sent = await options.send(chunks[index]!, index);
    ledger.recordPart(key, index, sent.messageId);
    ids.push(sent.messageId);
  }
  ledger.complete(key);
  return { messageIds: ids, skipped, alreadyDelivered: false };
}
