// The gateway's cron scheduler: one timer armed for the earliest due job, claims in the state
// database, one turn per claimed run. The clock and the timers are injected so tests run without
// waiting.
import {
  createCronStore,
  type ClaimedRun,
  type CronJob,
  type CronJobPatch,
  type CronRun,
  type CronStore,
  type NewCronJob,
  type StateDb,
} from "../state/index.js";
import { nextRunAfter } from "./cron-schedule.js";

/** How a job's turn went, as the runner reports it. */
export interface CronRunOutcome {
  /** `interrupted`: the turn was aborted because the gateway stopped. */
  status: "ok" | "error" | "skipped" | "interrupted";
  /** A reply reached the job's target. */
  delivered: boolean;
  error?: string;
}

/** Timer functions (default: the global ones; timers are unref'd so they never keep a process alive). */
export interface CronTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface CronServiceOptions {
  /** The open state database (the gateway's connection). */
  db: StateDb;
  /** Runs one job's turn and delivers its reply; a rejection is recorded as an error run. */
  runJob(job: CronJob): Promise<CronRunOutcome>;
  /** Default `Date.now`. */
  now?: () => number;
  timers?: CronTimers;
  /**
   * Longest the scheduler sleeps before it looks at the table again, so jobs another process wrote
   * (`openclaw cron add` without a gateway, `openclaw agent --local`) are seen; default 60 000 ms.
   */
  pollMs?: number;
  log?: { info(message: string): void; warn(message: string): void };
}

/** The job operations the `cron` tool and the control API use; `runNow` only where a gateway runs. */
export type CronJobs = Pick<CronService, "list" | "get" | "add" | "update" | "remove"> & Partial<Pick<CronService, "runNow">>;

/** What `status` shows about cron. */
export interface CronSummary {
  /** Stored jobs, enabled or not. */
  jobs: number;
  enabled: number;
  /** The earliest due time of an enabled job. */
  nextRunAt?: number;
}

const DEFAULT_POLL_MS = 60_000;
/** Timers beyond ~24.8 days overflow setTimeout; the scheduler just wakes and re-arms. */
const MAX_TIMER_MS = 2_147_000_000;

const defaultTimers: CronTimers = {
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

/**
 * Runs due cron jobs while the gateway runs.
 * - {@link start} marks runs a stopped or crashed gateway left `running` as `interrupted` (they
 *   are not repeated), then runs every job that fell due while no gateway ran: once each, however
 *   many of its slots were missed.
 * - Each due job is claimed in the state database before its turn starts, so a restart (even
 *   after kill -9) never runs a slot twice.
 * - Changes through this service re-arm the timer at once; changes another process wrote are seen
 *   within `pollMs`.
 */
export class CronService {
  readonly store: CronStore;
  private readonly now: () => number;
  private readonly timers: CronTimers;
  private readonly pollMs: number;
  private timer: unknown;
  private running = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: CronServiceOptions) {
    this.store = createCronStore(options.db, nextRunAfter);
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? defaultTimers;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  }

  /** Starts the loop: recovers interrupted runs and runs what is due now. Idempotent. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const interrupted = this.store.markInterrupted(this.now());
    if (interrupted > 0)
      this.options.log?.warn(`cron: ${interrupted} run(s) cut off by the last stop were marked interrupted (not repeated)`);
    this.tick();
  }

  /** Stops the timer and waits (at most `timeoutMs`, default 2000) for runs in flight to be recorded. */
  async stop(options: { timeoutMs?: number } = {}): Promise<void> {
    this.running = false;
    this.clearTimer();
    if (this.inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, options.timeoutMs ?? 2000);
        timer.unref?.();
      }),
    ]);
    clearTimeout(timer);
  }

  /** Resolves once no run is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  list(agentId?: string): CronJob[] {
    return this.store.list(agentId);
  }

  get(id: string): CronJob | undefined {
    return this.store.get(id);
  }

  add(job: NewCronJob): CronJob {
    const added = this.store.add(job, this.now());
    this.rearm();
    return added;
  }

  update(id: string, patch: CronJobPatch): CronJob | undefined {
    const updated = this.store.update(id, patch, this.now());
    this.rearm();
    return updated;
  }

  remove(id: string): boolean {
    const removed = this.store.remove(id);
    this.rearm();
    return removed;
  }

  runs(options?: { jobId?: string; limit?: number }): CronRun[] {
    return this.store.runs(options);
  }

  /**
   * Runs a job now, whatever its schedule (which stays as it is), and resolves with the finished
   * run. Undefined when there is no such job.
   */
  async runNow(id: string): Promise<CronRun | undefined> {
    const claimed = this.store.claimManual(id, this.now());
    if (!claimed) return undefined;
    await this.launch(claimed);
    return this.store.runs({ jobId: claimed.job.id, limit: 20 }).find((r) => r.id === claimed.runId);
  }

  summary(): CronSummary {
    const jobs = this.store.list();
    const due = this.store.nextDueAt();
    return { jobs: jobs.length, enabled: jobs.filter((j) => j.enabled).length, ...(due !== undefined ? { nextRunAt: due } : {}) };
  }

  private tick(): void {
    this.clearTimer();
    if (!this.running) return;
    try {
      for (const claimed of this.store.claimDue(this.now())) void this.launch(claimed);
    } catch (err) {
      this.options.log?.warn(`cron: could not read the due jobs: ${(err as Error).message}`);
    }
    this.arm();
  }

  private arm(): void {
    if (!this.running) return;
    let wait = this.pollMs;
    try {
      const due = this.store.nextDueAt();
      if (due !== undefined) wait = Math.min(wait, Math.max(0, due - this.now()));
    } catch {
      // The table is read again at the next poll.
    }
    this.timer = this.timers.setTimeout(() => this.tick(), Math.min(wait, MAX_TIMER_MS));
  }

  private rearm(): void {
    if (!this.running) return;
    this.clearTimer();
    this.arm();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private launch({ job, runId }: ClaimedRun): Promise<void> {
    const run = (async () => {
      let outcome: CronRunOutcome;
      try {
        outcome = await this.options.runJob(job);
      } catch (err) {
        outcome = { status: "error", delivered: false, error: (err as Error).message };
      }
      try {
        this.store.finishRun(runId, outcome, this.now());
      } catch (err) {
        this.options.log?.warn(`cron: could not record run ${runId} of job ${job.id}: ${(err as Error).message}`);
      }
      if (outcome.status === "error") this.options.log?.warn(`cron: job ${job.id} failed: ${outcome.error ?? "unknown error"}`);
    })();
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
    return run;
  }
}
