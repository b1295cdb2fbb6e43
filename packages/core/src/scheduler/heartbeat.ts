// The heartbeat scheduler: a periodic turn in each agent's main session, delivered unless it only acks.
import type { OpenClawConfig } from "../config/index.js";
import { isWithinActiveHours } from "./active-hours.js";
import { readHeartbeatReply } from "./heartbeat-ack.js";
import { DEFAULT_HEARTBEAT_PROMPT, heartbeatAgents, resolveHeartbeatSettings, type HeartbeatSettings } from "./heartbeat-settings.js";
import { type HeartbeatStatus, type HeartbeatStore, nextHeartbeatDue } from "./heartbeat-store.js";
import { runScheduledTurn, type ScheduledTurnDeps, type ScheduledTurnOutcome } from "./scheduled-turn.js";
import { formatTarget } from "./target.js";

/** The longest the scheduler sleeps, so a config reload or the end of a quiet window is noticed within a minute. */
export const HEARTBEAT_MAX_SLEEP_MS = 60_000;

export interface SchedulerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const defaultTimers: SchedulerTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface HeartbeatSchedulerOptions {
  /** The running config; read again at every wake-up, so a reload applies within a minute. */
  config: OpenClawConfig;
  store: HeartbeatStore;
  turns: ScheduledTurnDeps;
  /** The agent's main session key (`runtime.mainSessionKey`). */
  mainSessionKey(agentId: string): string;
  /** Milliseconds clock; default `Date.now`. */
  now?: () => number;
  /** Default: the global timers, unref'd (the scheduler never keeps the process alive). */
  timers?: SchedulerTimers;
  log?: { info(message: string): void; warn(message: string): void };
  /** Called after each run (scheduled or manual); errors it throws are ignored. */
  onRun?(event: HeartbeatRunEvent): void;
}

/** One finished (or skipped) heartbeat run. */
export interface HeartbeatRunEvent {
  agentId: string;
  status: HeartbeatStatus;
  /** True for `openclaw heartbeat now` / `heartbeat.now`. */
  manual: boolean;
  startedAt: number;
  finishedAt: number;
  /** The run id of the turn (absent when it was skipped). */
  runId?: string;
}

/** One agent's heartbeat, as `status` and `heartbeat.status` report it. */
export interface HeartbeatStatusEntry {
  agentId: string;
  every: string;
  target: string;
  lastRunAt: number | null;
  nextRunAt: number | null;
  lastStatus: HeartbeatStatus | null;
  /** A run is waiting or going now. */
  running: boolean;
  activeHours?: { start: string; end: string; timezone?: string };
}

function statusOf(outcome: ScheduledTurnOutcome): HeartbeatStatus {
  if (outcome.status === "skipped-busy") return "skipped-busy";
  if (outcome.delivered) return "delivered";
  switch (outcome.notDelivered) {
    case "silent":
    case "empty":
    case "declined":
      return "ack";
    case "no-target":
      return "no-target";
    default:
      return "failed";
  }
}

/**
 * Runs each agent's heartbeat (see `agents.defaults.heartbeat`): `every` after the previous run
 * ended (persisted in the state database, so a restart keeps the cadence; an agent seen for the
 * first time runs `every` after that), only inside `activeHours` (outside, it is checked again
 * each minute), through {@link runScheduledTurn} in the main session with trigger "heartbeat".
 * A reply that is only HEARTBEAT_OK (see readHeartbeatReply) is not delivered. One timer, unref'd.
 */
export class HeartbeatScheduler {
  private readonly now: () => number;
  private readonly timers: SchedulerTimers;
  private timer: unknown;
  private stopped = true;
  /** Runs waiting or going per agent (a manual one may overlap a scheduled one; the second is skipped). */
  private readonly running = new Map<string, number>();
  /** Agents outside their active hours: not checked again before this time. */
  private readonly notBefore = new Map<string, number>();
  private readonly reported = new Set<string>();

  constructor(private readonly options: HeartbeatSchedulerOptions) {
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? defaultTimers;
  }

  /** Starts the timer. Idempotent. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.plan();
  }

  /** Stops the timer; runs already in the queue finish (the queue's drain waits for them). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Runs one heartbeat of `agentId` now, ignoring `every` and `activeHours`; skipped (status
   * "skipped-busy") when one is already waiting or running. An agent without a heartbeat block
   * runs with the default prompt and target "none". The next scheduled run counts from this one.
   */
  async runNow(agentId: string): Promise<HeartbeatRunEvent> {
    const settings = resolveHeartbeatSettings(this.options.config, agentId) ?? {
      agentId,
      everyMs: 0,
      every: "0m",
      target: "none" as const,
      prompt: DEFAULT_HEARTBEAT_PROMPT,
      ackMaxChars: 300,
    };
    return this.run(settings, true);
  }

  /** Every agent with a heartbeat: interval, target, last run and when the next is due. */
  status(): HeartbeatStatusEntry[] {
    const now = this.now();
    return heartbeatAgents(this.options.config).settings.map((s) => {
      const record = this.options.store.get(s.agentId, now);
      const due = Math.max(nextHeartbeatDue(record, s.everyMs), this.notBefore.get(s.agentId) ?? 0);
      return {
        agentId: s.agentId,
        every: s.every,
        target: formatTarget(s.target),
        lastRunAt: record.lastRunAt ?? null,
        nextRunAt: this.stopped ? null : Math.max(due, now),
        lastStatus: record.lastStatus ?? null,
        running: (this.running.get(s.agentId) ?? 0) > 0,
        ...(s.activeHours ? { activeHours: s.activeHours } : {}),
      } satisfies HeartbeatStatusEntry;
    });
  }

  private plan(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped) return;
    const now = this.now();
    let wake = now + HEARTBEAT_MAX_SLEEP_MS;
    const { settings, problems } = heartbeatAgents(this.options.config);
    for (const problem of problems) {
      if (this.reported.has(problem)) continue;
      this.reported.add(problem);
      this.options.log?.warn(`heartbeat: ${problem}; that agent's heartbeat does not run until it is fixed`);
    }
    for (const s of settings) {
      if ((this.running.get(s.agentId) ?? 0) > 0) continue;
      const due = Math.max(nextHeartbeatDue(this.options.store.get(s.agentId, now), s.everyMs), this.notBefore.get(s.agentId) ?? 0);
      if (due > now) {
        wake = Math.min(wake, due);
        continue;
      }
      if (!isWithinActiveHours(new Date(now), s.activeHours)) {
        const later = now + Math.min(s.everyMs, HEARTBEAT_MAX_SLEEP_MS);
        this.notBefore.set(s.agentId, later);
        wake = Math.min(wake, later);
        continue;
      }
      this.notBefore.delete(s.agentId);
      void this.run(s, false);
    }
    this.timer = this.timers.setTimeout(() => this.plan(), Math.max(0, wake - now));
  }

  private async run(settings: HeartbeatSettings, manual: boolean): Promise<HeartbeatRunEvent> {
    const { agentId } = settings;
    const startedAt = this.now();
    this.running.set(agentId, (this.running.get(agentId) ?? 0) + 1);
    let status: HeartbeatStatus;
    let runId: string | undefined;
    try {
      const outcome = await runScheduledTurn(this.options.turns, {
        agentId,
        sessionKey: this.options.mainSessionKey(agentId),
        message: settings.prompt,
        trigger: "heartbeat",
        target: settings.target,
        rewrite: (text) => {
          const reply = readHeartbeatReply(text, settings.ackMaxChars);
          return reply.deliver ? reply.text : "";
        },
      });
      status = statusOf(outcome);
      runId = outcome.result?.runId;
      if (status === "failed") {
        this.options.log?.warn(
          `heartbeat of agent ${agentId} failed: ${outcome.result?.error?.message ?? outcome.notDelivered ?? "unknown error"}`,
        );
      }
    } catch (err) {
      status = "failed";
      this.options.log?.warn(`heartbeat of agent ${agentId} failed: ${(err as Error).message}`);
    }
    const finishedAt = this.now();
    if (status !== "skipped-busy") this.options.store.recordRun(agentId, { startedAt, finishedAt, status });
    const event: HeartbeatRunEvent = { agentId, status, manual, startedAt, finishedAt, ...(runId ? { runId } : {}) };
    try {
      this.options.onRun?.(event);
    } catch {
      // an observer must not break the schedule
    }
    const left = (this.running.get(agentId) ?? 1) - 1;
    if (left > 0) this.running.set(agentId, left);
    else this.running.delete(agentId);
    // A skipped scheduled run is not recorded: wait a little before trying again.
    if (status === "skipped-busy" && !manual) this.notBefore.set(agentId, finishedAt + Math.min(settings.everyMs, HEARTBEAT_MAX_SLEEP_MS));
    if (left <= 0) this.plan();
    return event;
  }
}
