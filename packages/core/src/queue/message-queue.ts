import { randomUUID } from "node:crypto";
import type { AgentEvent, TurnRequest, TurnResult } from "../agent/index.js";
import { applyQueueCommand, parseQueueCommand } from "./command.js";
import {
  deferred,
  drainSteering,
  inboundKeysOf,
  insertBySeq,
  leftoverEntry,
  takeBatch,
  trailingCollect,
  type ActiveRun,
  type Entry,
  type Lane,
  type Settled,
  type SteerItem,
} from "./lane.js";
import { IdleWatch } from "./idle.js";
import { Semaphore } from "./semaphore.js";
import { describeQueueSettings, resolveMaxConcurrent, resolveQueueSettings } from "./settings.js";
import { collectedText, droppedSummary, snippet, withDroppedNote } from "./text.js";
import type {
  AbortSummary,
  CancelReason,
  MessageQueueOptions,
  PendingResult,
  QueueMessage,
  QueueOverride,
  QueueSettings,
  QueueTimers,
  SessionQueueState,
  SubmitOutcome,
} from "./types.js";

const DEFAULT_WAIT_NOTICE_MS = 2000;
const DEFAULT_SHUTDOWN_MS = 30_000;

const defaultTimers: QueueTimers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The message queue in front of the agent runtime: one run at a time per session (a FIFO lane
 * per session key), at most `maxConcurrent` runs across sessions (a FIFO global lane), and the
 * queue modes for messages that arrive while their session is busy: steer (default), followup,
 * collect, interrupt; with a quiet window (debounce), a per-session cap and a drop policy.
 * `/queue` chat commands are answered here and never reach the agent.
 */
export class MessageQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly semaphore: Semaphore;
  private readonly now: () => number;
  private readonly timers: QueueTimers;
  private readonly waitNoticeMs: number;
  private readonly overrides: NonNullable<MessageQueueOptions["overrides"]>;
  private readonly logger: NonNullable<MessageQueueOptions["logger"]>;
  private seq = 0;
  private state: "open" | "draining" | "closing" = "open";
  private readonly idleWatch: IdleWatch;

  /** The most runs at once across sessions. */
  readonly maxConcurrent: number;

  constructor(private readonly options: MessageQueueOptions) {
    this.maxConcurrent = resolveMaxConcurrent(options.config, options.maxConcurrent);
    this.semaphore = new Semaphore(this.maxConcurrent);
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? defaultTimers;
    this.waitNoticeMs = options.waitNoticeMs ?? DEFAULT_WAIT_NOTICE_MS;
    this.idleWatch = new IdleWatch(() => this.isIdle(), this.timers);
    this.logger = options.logger ?? { warn: (message) => console.warn(`[queue] ${message}`) };
    const memory = new Map<string, QueueOverride>();
    this.overrides = options.overrides ?? {
      get: (key) => memory.get(key),
      set: (key, value) => (value ? memory.set(key, value) : memory.delete(key)),
    };
  }

  /**
   * Hands a message to its session lane. An idle session runs it at once and resolves `ran` when
   * the turn is done. A busy session applies the queue mode: `steered` (joined the active run),
   * `queued` / `merged` (a later turn; `result` settles when it ran), `ran` with `interrupted`
   * (interrupt mode), or `dropped` (cap with `drop: "new"`, or the queue is closed). `/queue`
   * commands resolve `command` with the reply to send. Routing happens synchronously, before
   * the returned promise is first awaited, so messages keep the order of the `submit` calls.
   * Rejects only when `run` itself throws for a message that ran directly.
   */
  async submit(message: QueueMessage): Promise<SubmitOutcome> {
    const key = laneKey(message.sessionKey);
    const command = parseQueueCommand(message.text);
    if (command) {
      const reply = applyQueueCommand(command, key, this.overrides, () => describeQueueSettings(this.settings(key, message.channel)));
      return { kind: "command", reply, settings: this.settings(key, message.channel) };
    }
    if (this.state !== "open") {
      return { kind: "dropped", reason: "closed", message: "The gateway is shutting down; the message was not taken." };
    }
    const settings = this.settings(key, message.channel);
    const lane = this.lane(key);
    lane.lastArrival = this.now();

    if (!lane.active && lane.queue.length === 0) return this.runNow(lane, message);
    if (message.ownTurn) return this.enqueueOwnTurn(lane, message);
    if (settings.mode === "interrupt") return this.interrupt(lane, message);
    if (settings.mode === "steer" && lane.active?.accepting) return this.steer(lane, lane.active, message, settings);
    // followup, collect, and steer when the run can no longer take steering.
    return this.enqueue(lane, message, settings.mode === "collect" ? "collect" : "turn", settings);
  }

  /** The settings in force for a session (and channel), after precedence. */
  settings(sessionKey: string, channel?: string): QueueSettings {
    const override = this.overrides.get(laneKey(sessionKey));
    return resolveQueueSettings(this.options.config, { ...(channel ? { channel } : {}), ...(override ? { override } : {}) });
  }

  /** What the queue is doing for a session. */
  sessionState(sessionKey: string): SessionQueueState {
    const key = laneKey(sessionKey);
    const lane = this.lanes.get(key);
    const active = lane?.active;
    return {
      sessionKey: key,
      queued: lane?.queue.length ?? 0,
      ...(active
        ? {
            active: {
              turnId: active.turnId,
              pendingSteering: active.steering.length,
              ...(active.runId ? { runId: active.runId } : {}),
              ...(active.startedAt !== undefined ? { startedAt: active.startedAt } : {}),
            },
          }
        : {}),
    };
  }

  /**
   * Cancels work. With a run id (a turn id from an outcome, any message id of a waiting or
   * running turn, or the runtime's run id): cancels that queued message or aborts that run
   * only. Otherwise, for one session (a string or `{ sessionKey }`) or for all sessions: cancels
   * waiting messages first (queued, and steering the run has not taken), then aborts the active
   * runs. Aborted runs end with status "aborted"; their waiting messages resolve as cancelled.
   */
  abort(target?: string | { sessionKey?: string; runId?: string }): AbortSummary {
    const { sessionKey, runId } = typeof target === "string" ? { sessionKey: target, runId: undefined } : (target ?? {});
    const summary: AbortSummary = { cancelled: 0, aborted: [] };
    const lanes = sessionKey ? [this.lanes.get(laneKey(sessionKey))].filter((l): l is Lane => !!l) : [...this.lanes.values()];
    if (runId) {
      for (const lane of lanes) this.abortById(lane, runId, summary);
    } else {
      for (const lane of lanes) summary.cancelled += this.cancelQueued(lane, "abort");
      for (const lane of lanes) {
        if (!lane.active || lane.active.abortReason) continue;
        summary.cancelled += this.abortRun(lane.active, "abort");
        summary.aborted.push(lane.active.turnId);
      }
    }
    this.idleWatch.check();
    return summary;
  }

  /** Resolves when no session has a run going or a message waiting. */
  idle(): Promise<void> {
    return this.idleWatch.wait(undefined).then(() => undefined);
  }

  /**
   * Graceful shutdown: stops taking messages, runs what is already waiting (without the quiet
   * window) and waits for every run; after `timeoutMs` (default 30 s) aborts what is left.
   */
  async drain(options: { timeoutMs?: number } = {}): Promise<{ timedOut: boolean }> {
    if (this.state === "open") this.state = "draining";
    for (const lane of this.lanes.values()) this.pump(lane);
    const finished = await this.idleWatch.wait(options.timeoutMs ?? DEFAULT_SHUTDOWN_MS);
    if (!finished) await this.forceStop("closed");
    return { timedOut: !finished };
  }

  /**
   * Fast shutdown: stops taking messages, cancels everything waiting, waits for active runs up
   * to `timeoutMs` (default 30 s), then aborts them.
   */
  async close(options: { timeoutMs?: number } = {}): Promise<{ timedOut: boolean }> {
    this.state = "closing";
    for (const lane of this.lanes.values()) this.cancelQueued(lane, "closed");
    this.idleWatch.check();
    const finished = await this.idleWatch.wait(options.timeoutMs ?? DEFAULT_SHUTDOWN_MS);
    if (!finished) await this.forceStop("closed");
    return { timedOut: !finished };
  }

  // ---- routing -------------------------------------------------------------------------

  private async runNow(lane: Lane, message: QueueMessage): Promise<SubmitOutcome> {
    const { entry, wait } = this.newEntry(message, "turn", true);
    lane.queue.push(entry);
    this.pump(lane);
    return toRanOutcome(entry.id, await wait);
  }

  private async interrupt(lane: Lane, message: QueueMessage): Promise<SubmitOutcome> {
    const active = lane.active;
    const interrupted =
      active && !active.abortReason ? { turnId: active.turnId, ...(active.runId ? { runId: active.runId } : {}) } : undefined;
    let dropped = this.cancelQueued(lane, "interrupt");
    if (active && !active.abortReason) dropped += this.abortRun(active, "interrupt");
    const { entry, wait } = this.newEntry(message, "turn", true);
    lane.queue.push(entry);
    this.pump(lane);
    const outcome = toRanOutcome(entry.id, await wait);
    if (outcome.kind !== "ran") return outcome;
    return { ...outcome, ...(interrupted ? { interrupted } : {}), droppedQueued: dropped };
  }

  private steer(lane: Lane, active: ActiveRun, message: QueueMessage, settings: QueueSettings): SubmitOutcome {
    const wait = deferred();
    const item: SteerItem = { seq: (this.seq += 1), message, settle: wait.settle };
    let alsoQueued = false;
    if (settings.backlog) {
      const copy = this.enqueue(lane, message, "turn", settings);
      if (copy.kind === "queued" || copy.kind === "merged") {
        alsoQueued = true;
        item.backlogCopy = copy.result.then((result) => (result ? { result } : { cancelled: "dropped" as const }));
      }
    }
    active.steering.push(item);
    return {
      kind: "steered",
      turnId: active.turnId,
      ...(active.runId ? { runId: active.runId } : {}),
      alsoQueued,
      result: pendingResult(wait.promise),
    };
  }

  private enqueue(lane: Lane, message: QueueMessage, kind: Entry["kind"], settings: QueueSettings): SubmitOutcome {
    let droppedOldest = 0;
    while (lane.queue.length >= settings.cap) {
      if (settings.drop === "new") {
        return {
          kind: "dropped",
          reason: "cap",
          message: `This chat already has ${lane.queue.length} messages waiting (cap ${settings.cap}); this one was not queued.`,
        };
      }
      const oldest = lane.queue.shift()!;
      if (settings.drop === "summarize") lane.dropped.push(snippet(oldest.text));
      oldest.settle({ cancelled: "dropped" });
      droppedOldest += 1;
    }
    const joins = kind === "collect" ? trailingCollect(lane.queue) : 0;
    const { entry, wait } = this.newEntry(message, kind, false);
    lane.queue.push(entry);
    this.pump(lane);
    const result = pendingResult(wait);
    if (joins > 0) return { kind: "merged", turnId: entry.id, groupSize: joins + 1, droppedOldest, result };
    return { kind: "queued", turnId: entry.id, position: lane.queue.indexOf(entry) + 1, droppedOldest, result };
  }

  /** A scheduled message waits at the end of the lane, outside the cap, and runs without the quiet window. */
  private enqueueOwnTurn(lane: Lane, message: QueueMessage): SubmitOutcome {
    const { entry, wait } = this.newEntry(message, "turn", true);
    lane.queue.push(entry);
    this.pump(lane);
    return { kind: "queued", turnId: entry.id, position: lane.queue.indexOf(entry) + 1, droppedOldest: 0, result: pendingResult(wait) };
  }

  private newEntry(message: QueueMessage, kind: Entry["kind"], immediate: boolean): { entry: Entry; wait: Promise<Settled> } {
    const wait = deferred();
    const entry: Entry = { id: randomUUID(), seq: (this.seq += 1), message, text: message.text, kind, immediate, settle: wait.settle };
    return { entry, wait: wait.promise };
  }

  // ---- running -------------------------------------------------------------------------

  /** Starts the lane's next turn when the lane is free and the quiet window has passed. */
  private pump(lane: Lane): void {
    if (lane.active) return;
    if (lane.timer !== undefined) {
      this.timers.clearTimeout(lane.timer);
      lane.timer = undefined;
    }
    const head = lane.queue[0];
    if (!head) {
      if (lane.dropped.length === 0) this.lanes.delete(lane.key);
      this.idleWatch.check();
      return;
    }
    if (!head.immediate && this.state === "open") {
      const wait = lane.lastArrival + this.settings(lane.key, head.message.channel).debounceMs - this.now();
      if (wait > 0) {
        lane.timer = this.timers.setTimeout(() => {
          lane.timer = undefined;
          this.pump(lane);
        }, wait);
        return;
      }
    }
    this.start(lane, takeBatch(lane.queue));
  }

  private start(lane: Lane, batch: Entry[]): void {
    const first = batch[0]!;
    const text = first.kind === "collect" ? collectedText(batch.map((e) => e.text)) : first.text;
    const note = droppedSummary(lane.dropped);
    lane.dropped = [];
    const active: ActiveRun = {
      turnId: first.id,
      entryIds: batch.map((e) => e.id),
      controller: new AbortController(),
      steering: [],
      injected: [],
      // A scheduled turn takes no steering: a person's message must get a reply of its own.
      accepting: !first.message.ownTurn,
    };
    lane.active = active;
    void this.execute(lane, active, batch, withDroppedNote(note, text));
  }

  private async execute(lane: Lane, active: ActiveRun, batch: Entry[], text: string): Promise<void> {
    const newest = batch[batch.length - 1]!.message;
    const owner = [...batch].reverse().find((e) => e.message.onEvent)?.message;
    const onEvent = owner?.onEvent;
    const queuedAt = this.now();
    let outcome: Settled;
    let release: (() => void) | undefined;
    try {
      release = await this.semaphore.acquire(active.controller.signal);
    } catch {
      outcome = { cancelled: active.abortReason ?? "abort" };
    }
    if (release) {
      active.startedAt = this.now();
      const waited = active.startedAt - queuedAt;
      if (waited > this.waitNoticeMs) {
        this.logger.warn(
          `session ${lane.key} waited ${(waited / 1000).toFixed(1)} s for a free run slot (agents.defaults.maxConcurrent = ${this.maxConcurrent}).`,
        );
      }
      // Steering that arrived before the model saw anything joins the opening message.
      const early = active.steering.splice(0);
      active.injected.push(...early);
      const message = [text, ...early.map((s) => s.message.text)].join("\n\n");
      // The owner's keys last, after those of early steering too: see inboundKeysOf.
      const inboundKeys = inboundKeysOf([...batch.map((e) => e.message), ...early.map((s) => s.message)], owner);
      const request: TurnRequest = {
        sessionKey: newest.sessionKey,
        message,
        signal: active.controller.signal,
        drainSteering: () => drainSteering(active),
        onEvent: (event: AgentEvent) => {
          if (event.type === "run_start") active.runId = event.runId;
          onEvent?.(event);
        },
        ...(newest.agentId ? { agentId: newest.agentId } : {}),
        ...(newest.origin ? { origin: newest.origin } : {}),
        ...(newest.touch !== undefined ? { touch: newest.touch } : {}),
        ...(newest.trigger ? { trigger: newest.trigger } : {}),
        ...(inboundKeys.length ? { inboundKeys } : {}),
      };
      try {
        outcome = { result: await this.options.run(request) };
      } catch (error) {
        outcome = { error };
        this.logger.warn(`a run for session ${lane.key} failed: ${(error as Error)?.message ?? String(error)}`);
      } finally {
        release();
      }
    }
    active.accepting = false;
    for (const entry of batch) entry.settle(outcome!);
    for (const item of active.injected) item.settle(outcome!);
    const leftover = leftoverEntry(active, active.abortReason ?? (this.state === "closing" ? "closed" : undefined), randomUUID());
    if (leftover) insertBySeq(lane.queue, leftover);
    lane.active = undefined;
    this.pump(lane);
  }

  // ---- cancelling ----------------------------------------------------------------------

  private cancelQueued(lane: Lane, reason: CancelReason): number {
    const entries = lane.queue.splice(0);
    for (const entry of entries) entry.settle({ cancelled: reason });
    lane.dropped = [];
    if (lane.timer !== undefined) {
      this.timers.clearTimeout(lane.timer);
      lane.timer = undefined;
    }
    return entries.length;
  }

  /** Aborts a run and cancels the steering it has not taken; returns how many messages were cancelled. */
  private abortRun(active: ActiveRun, reason: CancelReason): number {
    active.abortReason = reason;
    active.accepting = false;
    const pending = active.steering.splice(0);
    for (const item of pending) item.settle({ cancelled: reason });
    const error = new Error(reason === "interrupt" ? "interrupted by a newer message" : "aborted");
    error.name = "AbortError";
    active.controller.abort(error);
    return pending.length;
  }

  private abortById(lane: Lane, id: string, summary: AbortSummary): void {
    const index = lane.queue.findIndex((e) => e.id === id);
    if (index >= 0) {
      lane.queue.splice(index, 1)[0]!.settle({ cancelled: "abort" });
      summary.cancelled += 1;
      if (lane.queue.length === 0) this.cancelQueued(lane, "abort");
      return;
    }
    const active = lane.active;
    if (active && !active.abortReason && (active.turnId === id || active.runId === id || active.entryIds.includes(id))) {
      summary.cancelled += this.abortRun(active, "abort");
      summary.aborted.push(active.turnId);
    }
  }

  private async forceStop(reason: CancelReason): Promise<void> {
    this.state = "closing";
    for (const lane of this.lanes.values()) {
      this.cancelQueued(lane, reason);
      if (lane.active && !lane.active.abortReason) this.abortRun(lane.active, reason);
    }
    await this.idleWatch.wait(undefined);
  }

  // ---- bookkeeping ---------------------------------------------------------------------

  private lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, queue: [], dropped: [], lastArrival: this.now() };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private isIdle(): boolean {
    for (const lane of this.lanes.values()) if (lane.active || lane.queue.length > 0) return false;
    return true;
  }
}

function laneKey(sessionKey: string): string {
  return sessionKey.trim().toLowerCase();
}

function pendingResult(wait: Promise<Settled>): PendingResult {
  return wait.then((outcome) => outcome.result);
}

function toRanOutcome(turnId: string, outcome: Settled): SubmitOutcome & { kind: "ran" | "cancelled" } {
  if (outcome.error !== undefined) throw outcome.error;
  if (outcome.cancelled || !outcome.result) return { kind: "cancelled", reason: outcome.cancelled ?? "abort" };
  return { kind: "ran", turnId, result: outcome.result as TurnResult };
}
