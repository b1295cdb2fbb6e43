// The durable inbox: every inbound channel message is recorded before `receive` resolves, marked
// when its handling is finished, and handled again after a restart when it was not.
import type { InboundMessage } from "@openclaw/plugin-sdk";
import { recordedInbound } from "../agent/index.js";
import type { AccountDirectory, AccountHandle } from "../gateway/index.js";
import { type IdRulesLookup, resolveRoute } from "../routing/index.js";
import type { SessionReader, StoredEvent } from "../sessions/index.js";
import type { StateDb } from "../state/index.js";
import { planSessionReplay } from "./plan.js";
import { InboxStore, type InboxRow } from "./store.js";
import { checkpointInBackground } from "../databases/checkpointer.js";
import { attemptReplyKey, InboxTurn, type InboxVerdict } from "./turn.js";

/** A handling gives up after this many attempts (each restart that finds it unanswered is one). */
export const MAX_INBOX_ATTEMPTS = 5;

/** The slice of the delivery ledger the replay reads. */
export interface InboxLedger {
  /** The delivery `key`, with its parts (a null id: not delivered yet); undefined when unknown. */
  read(key: string): { chunks: readonly string[]; delivered: readonly (readonly string[] | null)[] } | undefined;
  /** Marks a delivery complete (an interrupted one the replay re-delivers itself). */
  complete(key: string): void;
  /** Records part `index` of delivery `key` as delivered, with the messages that show it. */
  recordPart(key: string, index: number, messageIds: readonly string[]): void;
}

/** A ledger entry a crash or shutdown left unfinished. */
export interface InterruptedDelivery {
  key: string;
  channel: string;
  accountId: string;
  /** Where it goes (an outbound target as JSON-able data). */
  target: unknown;
  /** The parts as they were split the first time. */
  chunks: readonly string[];
}

export interface InboxOptions {
  db: StateDb;
  log: { info(message: string): void; warn(message: string): void };
  /** True once the gateway stops taking work. */
  stopping: () => boolean;
  /** Where the replay reads what each session's transcript already holds. */
  runtime: { store(agentId: string): SessionReader };
  /** The config the router reads (bindings, session scopes). */
  config: unknown;
  /** The id rules of each loaded channel, so a replay routes a message exactly as its first handling did. */
  rulesOf?: IdRulesLookup;
  now?: () => number;
}

/** What the replay needs from the pipeline. */
export interface InboxReplayDeps {
  accounts: AccountDirectory;
  ledger: InboxLedger;
  /** Handles a message as the pipeline does, with the turn's reply key, text, keys and outbound. */
  handle(turn: InboxTurn, account: AccountHandle): Promise<InboxVerdict | undefined>;
  /** Finishes an interrupted final from the ledger alone (its recorded parts, without repeats). */
  finishFinal(account: AccountHandle, entry: InterruptedDelivery): Promise<unknown>;
  /** Registers work the pipeline's drain waits for. */
  track<T>(work: Promise<T>): Promise<T>;
  /** Tells the sender, in the chat, that their message was given up after `attempts` handlings. */
  giveUp(message: InboundMessage, account: AccountHandle, attempts: number): Promise<unknown>;
}

const isFinalKey = (key: string) => key.endsWith(":final");
const isBlockKey = (key: string) => /:block:\d+$/.test(key);

/**
 * The inbox of the gateway. `receive` records a message (deduplicated: a platform delivering it
 * again gets it acknowledged without a second handling); `run` handles it and records the
 * outcome; `replay`, once the accounts run, handles again what a crash or a shutdown left
 * unanswered, per session in arrival order, without running a turn whose answer was delivered,
 * without recording a user's text twice, and continuing replies in the messages already shown.
 */
export class Inbox {
  readonly store: InboxStore;
  /** Pending rows at start, taken before this process handles anything. */
  private readonly unanswered: InboxRow[];
  private claimed: InterruptedDelivery[] = [];
  /** Sessions being replayed: new messages wait until the replayed turns have begun. */
  private readonly gates = new Map<string, Promise<void>>();

  constructor(private readonly options: InboxOptions) {
    this.store = new InboxStore(options.db, options.now, (err) =>
      options.log.warn(`the inbox could not record how a message was handled: ${(err as Error).message}`),
    );
    // The inbox writes a few rows per turn: their checkpoints go to the background worker too,
    // once the first turn's session store starts it (a gateway without turns starts no thread).
    if (options.db.name !== ":memory:") checkpointInBackground(options.db, { start: false });
    this.store.prune();
    this.unanswered = this.store.pending();
  }

  /**
   * Records an inbound message (committed when this returns) and returns its first handling, or
   * undefined when the inbox already has it.
   */
  receive(message: InboundMessage): InboxTurn | undefined {
    const row = this.store.record(message);
    return row ? this.turn(row, 1) : undefined;
  }

  /**
   * Runs one handling and records how it ended; never rejects. A handling that throws leaves the
   * message pending (handled again at the next start). New messages of a session under replay
   * wait for its replayed turns to begin, so they queue behind them as they did before the crash.
   */
  async run(turn: InboxTurn, account: AccountHandle, handle: (turn: InboxTurn) => Promise<InboxVerdict | undefined>): Promise<void> {
    const gate = this.gates.get(this.sessionOf(turn.message));
    if (gate) await gate;
    await this.execute(turn, account, handle);
  }

  private async execute(
    turn: InboxTurn,
    account: AccountHandle,
    handle: (turn: InboxTurn) => Promise<InboxVerdict | undefined>,
  ): Promise<void> {
    let verdict: InboxVerdict;
    try {
      verdict = (await handle(turn)) ?? { state: "answered", reason: "handled" };
    } catch (err) {
      turn.abandon();
      account.log.error(
        `handling message ${turn.message.messageId} failed: ${(err as Error).message}; it is handled again at the next start`,
      );
      return;
    }
    try {
      await turn.settle(verdict, account.signal);
    } catch (err) {
      account.log.warn(`could not record the outcome of message ${turn.message.messageId}: ${(err as Error).message}`);
    }
  }

  /** Commits the inbox's queued bookkeeping now (the pipeline closes before the state database). */
  flush(): void {
    this.store.flush();
  }

  /**
   * Takes, from the delivery ledger's unfinished entries, the finals and blocks of replies to
   * unanswered messages (the replay finishes those itself); returns the others.
   */
  claimInterrupted<Entry extends InterruptedDelivery>(entries: readonly Entry[]): Entry[] {
    const prefixes = this.unanswered.map((row) => `${attemptReplyKey(row.message, 1)}:`);
    const owned = (key: string) => (isFinalKey(key) || isBlockKey(key)) && prefixes.some((p) => key.startsWith(p));
    this.claimed = entries.filter((e) => owned(e.key));
    return entries.filter((e) => !owned(e.key));
  }

  /**
   * Handles again every message recorded before this start and not answered, once its account
   * runs (accounts that do not run keep theirs for a later start). Per session: a final that was
   * delivered settles its message; one cut short is finished from the ledger; turns the
   * transcript holds are resumed, oldest first; then the messages that never reached the agent
   * are handled in arrival order.
   */
  async replay(deps: InboxReplayDeps): Promise<void> {
    // Grouped and gated before anything is awaited, so no new message slips in ahead of a replay.
    const bySession = new Map<string, { agentId: string; sessionKey: string; rows: InboxRow[] }>();
    for (const row of this.unanswered.splice(0)) {
      const account = deps.accounts.get(row.channel, row.accountId);
      if (!account) {
        this.options.log.warn(
          `inbox: message ${row.messageId} of ${row.channel}:${row.accountId} waits for its account, which is not running`,
        );
        continue;
      }
      if (row.attempts >= MAX_INBOX_ATTEMPTS) {
        // The sender is told (never a silent drop); the row is settled whether or not that send
        // succeeds, so a refusing platform cannot keep the message coming back.
        account.log.warn(
          `message ${row.messageId} was not answered after ${row.attempts} attempts; giving up on it and telling the sender`,
        );
        void deps.track(
          deps
            .giveUp(row.message, account, row.attempts)
            .catch((err: unknown) => account.log.warn(`could not tell the sender of message ${row.messageId}: ${(err as Error).message}`))
            .finally(() => this.store.settle(row.id, "dropped", `gave up after ${row.attempts} attempts`)),
        );
        continue;
      }
      let route: { agentId: string; sessionKey: string };
      try {
        route = this.route(row.message);
      } catch (err) {
        account.log.warn(`message ${row.messageId} cannot be routed: ${(err as Error).message}; it stays unanswered`);
        continue;
      }
      const key = route.sessionKey.toLowerCase();
      const session = bySession.get(key) ?? { ...route, rows: [] };
      session.rows.push(row);
      bySession.set(key, session);
    }
    const count = [...bySession.values()].reduce((n, s) => n + s.rows.length, 0);
    if (count === 0) return;
    this.options.log.info(`inbox: handling ${count} message(s) again that were not answered before the restart`);
    const replays: Promise<void>[] = [];
    for (const [key, session] of bySession) {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      this.gates.set(key, gate);
      const replay = this.replaySession(session, deps, () => {
        if (this.gates.get(key) === gate) this.gates.delete(key);
        open();
      });
      replays.push(deps.track(replay));
    }
    await Promise.all(replays);
    this.options.log.info(`inbox: done with the ${count} message(s) handled again`);
  }

  private async replaySession(
    session: { agentId: string; sessionKey: string; rows: InboxRow[] },
    deps: InboxReplayDeps,
    openGate: () => void,
  ): Promise<void> {
    try {
      const rows: InboxRow[] = [];
      for (const row of session.rows) {
        const account = deps.accounts.get(row.channel, row.accountId);
        if (account && !(await this.settledByLedger(row, account, deps))) rows.push(row);
      }
      const plan = planSessionReplay(rows, recordedInbound(this.transcript(session.agentId, session.sessionKey)));
      for (const [i, step] of plan.resume.entries()) {
        const turn = this.turn(step.row, this.store.beginAttempt(step.row.id), { text: step.text, inboundKeys: step.inboundKeys });
        const done = this.runWith(turn, deps);
        // The last resumed turn may still need the model: what arrived after it joins it, as it would have.
        if (i < plan.resume.length - 1) await done;
        else await Promise.race([turn.started, done]);
      }
      openGate();
      for (const row of plan.fresh) void this.runWith(this.turn(row, this.store.beginAttempt(row.id)), deps);
      // Wait for the resumed turns before settling the messages they answered.
      await this.quiet(session.sessionKey);
      for (const row of plan.follow) this.store.settle(row.id, "answered", "answered by the run that took it");
    } finally {
      openGate();
    }
  }

  private readonly running = new Map<string, Set<Promise<void>>>();

  /** Runs a replayed handling through the pipeline, registered per session for `quiet`. */
  private runWith(turn: InboxTurn, deps: InboxReplayDeps): Promise<void> {
    const account = deps.accounts.get(turn.row.channel, turn.row.accountId);
    if (!account) return Promise.resolve();
    const key = this.sessionOf(turn.message);
    const work = deps.track(this.execute(turn, account, (t) => deps.handle(t, account)));
    let set = this.running.get(key);
    if (!set) this.running.set(key, (set = new Set()));
    set.add(work);
    void work.finally(() => {
      set.delete(work);
      if (set.size === 0 && this.running.get(key) === set) this.running.delete(key);
    });
    return work;
  }

  private async quiet(sessionKey: string): Promise<void> {
    for (;;) {
      const set = this.running.get(sessionKey.toLowerCase());
      if (!set || set.size === 0) return;
      await Promise.allSettled([...set]);
    }
  }

  /**
   * Settles a row from the delivery ledger when its reply needs no turn: a final delivered
   * completely, a final cut short (finished now from its recorded parts), or a command answer.
   * Interrupted blocks are marked complete: the replayed reply continues in their messages.
   */
  private async settledByLedger(row: InboxRow, account: AccountHandle, deps: InboxReplayDeps): Promise<boolean> {
    const keys = Array.from({ length: row.attempts }, (_, i) => attemptReplyKey(row.message, i + 1));
    const mine = (entry: InterruptedDelivery) => keys.some((k) => entry.key.startsWith(`${k}:`));
    for (const entry of this.claimed.filter((e) => mine(e) && isBlockKey(e.key))) deps.ledger.complete(entry.key);
    const cutShort = this.claimed.find((e) => mine(e) && isFinalKey(e.key));
    this.claimed = this.claimed.filter((e) => !mine(e));
    if (cutShort) {
      this.adoptShownParts(row, cutShort, deps.ledger);
      try {
        await deps.track(deps.finishFinal(account, cutShort));
        this.store.settle(row.id, "answered", "final finished from the delivery ledger");
      } catch (err) {
        account.log.warn(`could not finish the interrupted reply to message ${row.messageId}: ${(err as Error).message}`);
      }
      return true;
    }
    for (const k of keys) {
      const final = deps.ledger.read(`${k}:final`);
      if (final?.delivered.every((id) => id !== null)) {
        this.store.settle(row.id, "answered", "final already delivered");
        return true;
      }
      if (deps.ledger.read(`${k}:command`)) {
        this.store.settle(row.id, "answered", "command answered");
        return true;
      }
    }
    return false;
  }

  /**
   * Records as delivered the parts of a cut-short final that the chat already shows: a kill
   * between the platform's answer to a send (in the reply journal at once) and the ledger's note
   * of it leaves the part undelivered in the ledger, and finishing the final would send it again.
   * A part matches a journalled message of this inbox row with exactly its text.
   */
  private adoptShownParts(row: InboxRow, entry: InterruptedDelivery, ledger: InboxLedger): void {
    const recorded = ledger.read(entry.key);
    if (!recorded) return;
    const used = new Set(recorded.delivered.flatMap((ids) => ids ?? []));
    const shown = this.store.replyMessages(row.id).filter((m) => !used.has(m.messageId));
    recorded.delivered.forEach((ids, index) => {
      if (ids !== null) return;
      const match = shown.findIndex((m) => m.text === recorded.chunks[index]);
      if (match < 0) return;
      ledger.recordPart(entry.key, index, [shown[match]!.messageId]);
      shown.splice(match, 1);
    });
  }

  private turn(row: InboxRow, attempt: number, resume?: { text: string; inboundKeys: readonly string[] }): InboxTurn {
    return new InboxTurn(this.store, row, { attempt, stopping: this.options.stopping, ...(resume ? { resume } : {}) });
  }

  /** The agent and session a message goes to. */
  private route(message: InboundMessage): { agentId: string; sessionKey: string } {
    return resolveRoute(message, this.options.config, this.options.rulesOf);
  }

  /** The current transcript of a session (empty when it has none). */
  private transcript(agentId: string, sessionKey: string): readonly StoredEvent[] {
    const store = this.options.runtime.store(agentId);
    const sessionId = store.getEntry(sessionKey)?.sessionId;
    return sessionId ? store.readEvents(sessionId) : [];
  }

  private sessionOf(message: InboundMessage): string {
    try {
      return this.route(message).sessionKey.toLowerCase();
    } catch {
      return "";
    }
  }
}
