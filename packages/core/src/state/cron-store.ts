// Cron jobs and their runs in the shared state database (migration 6, "cron"). The gateway's
// scheduler claims due jobs here; `openclaw cron list|add|rm` reads and writes the same tables
// from another process when no gateway runs. Every call is one short transaction; times are ms
// since the epoch.
//
// Exactly-once across restarts: a run is claimed (its row inserted as `running` and the job's next
// run moved past now) in one IMMEDIATE transaction before the turn starts. A restart therefore
// never repeats a claimed run; a run cut off by a crash is marked `interrupted`, not replayed.
import { randomBytes } from "node:crypto";
import type { StateDb } from "./db.js";
import type { StateMigration } from "./migrations.js";

/** A one-shot time, a fixed interval (slots counted from `anchorMs`), or a cron expression in a timezone. */
export type CronSchedule =
  | { kind: "at"; atMs: number }
  | { kind: "every"; everyMs: number; anchorMs: number }
  | { kind: "cron"; expr: string; tz?: string };

/** Where a job's turn runs: its own session `agent:<id>:cron:<jobId>`, or the agent's main session. */
export type CronSessionMode = "isolated" | "main";

/** How a run ended. `interrupted`: the gateway stopped or crashed mid-run (it is not run again). */
export type CronRunStatus = "running" | "ok" | "error" | "skipped" | "interrupted";

/** A stored job. */
export interface CronJob {
  /** 8 lowercase hex characters. */
  id: string;
  agentId: string;
  name?: string;
  schedule: CronSchedule;
  session: CronSessionMode;
  /** What the agent is told when the job runs. */
  message: string;
  /** `"last"`, `"none"` or `"<channel>:<accountId>:<chatId>"`. */
  target: string;
  enabled: boolean;
  /** The next due time; undefined when the job has none (a one-shot that ran, a disabled job). */
  nextRunAt?: number;
  lastRunAt?: number;
  lastStatus?: CronRunStatus;
  lastError?: string;
  createdAt: number;
  updatedAt: number;
}

/** One run of a job. `trigger`: `schedule` when it was due, `manual` for run-now. */
export interface CronRun {
  id: number;
  jobId: string;
  agentId: string;
  trigger: "schedule" | "manual";
  /** The due time it ran for (manual runs: when asked). */
  scheduledFor: number;
  startedAt: number;
  finishedAt?: number;
  status: CronRunStatus;
  delivered: boolean;
  error?: string;
}

/** What a new job needs; the store fills id, times and `nextRunAt`. */
export interface NewCronJob {
  agentId: string;
  name?: string;
  schedule: CronSchedule;
  session: CronSessionMode;
  message: string;
  target: string;
  enabled?: boolean;
}

/** Fields `update` may change; `undefined` leaves a field as it is, `name: null` clears it. */
export interface CronJobPatch {
  name?: string | null;
  schedule?: CronSchedule;
  session?: CronSessionMode;
  message?: string;
  target?: string;
  enabled?: boolean;
}

/** A claimed run: the job as it was when claimed and the run row's id. */
export interface ClaimedRun {
  job: CronJob;
  runId: number;
}

/** The next due time of `schedule` strictly after `afterMs` (see scheduler/cron-schedule.ts). */
export type NextRunFn = (schedule: CronSchedule, afterMs: number) => number | undefined;

/** The cron tables, appended to STATE_MIGRATIONS. */
export const CRON_MIGRATION: StateMigration = {
  version: 6,
  name: "cron",
  up(db) {
    db.exec(`
      CREATE TABLE cron_jobs (
        id            TEXT PRIMARY KEY,
        agent_id      TEXT NOT NULL,
        name          TEXT,
        schedule_json TEXT NOT NULL,
        session       TEXT NOT NULL,
        message       TEXT NOT NULL,
        target        TEXT NOT NULL,
        enabled       INTEGER NOT NULL DEFAULT 1,
        next_run_at   INTEGER,
        last_run_at   INTEGER,
        last_status   TEXT,
        last_error    TEXT,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX cron_jobs_due ON cron_jobs (next_run_at) WHERE enabled = 1;
      CREATE TABLE cron_runs (
        id            INTEGER PRIMARY KEY,
        job_id        TEXT NOT NULL,
        agent_id      TEXT NOT NULL,
        trigger       TEXT NOT NULL,
        scheduled_for INTEGER NOT NULL,
        started_at    INTEGER NOT NULL,
        finished_at   INTEGER,
        status        TEXT NOT NULL,
        delivered     INTEGER NOT NULL DEFAULT 0,
        error         TEXT
      ) STRICT;
      CREATE INDEX cron_runs_job ON cron_runs (job_id, id);
    `);
  },
};

interface JobRow {
  id: string;
  agent_id: string;
  name: string | null;
  schedule_json: string;
  session: string;
  message: string;
  target: string;
  enabled: number;
  next_run_at: number | null;
  last_run_at: number | null;
  last_status: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

interface RunRow {
  id: number;
  job_id: string;
  agent_id: string;
  trigger: string;
  scheduled_for: number;
  started_at: number;
  finished_at: number | null;
  status: string;
  delivered: number;
  error: string | null;
}

function jobOf(row: JobRow): CronJob {
  return {
    id: row.id,
    agentId: row.agent_id,
    ...(row.name !== null ? { name: row.name } : {}),
    schedule: JSON.parse(row.schedule_json) as CronSchedule,
    session: row.session === "main" ? "main" : "isolated",
    message: row.message,
    target: row.target,
    enabled: row.enabled === 1,
    ...(row.next_run_at !== null ? { nextRunAt: row.next_run_at } : {}),
    ...(row.last_run_at !== null ? { lastRunAt: row.last_run_at } : {}),
    ...(row.last_status !== null ? { lastStatus: row.last_status as CronRunStatus } : {}),
    ...(row.last_error !== null ? { lastError: row.last_error } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function runOf(row: RunRow): CronRun {
  return {
    id: row.id,
    jobId: row.job_id,
    agentId: row.agent_id,
    trigger: row.trigger === "manual" ? "manual" : "schedule",
    scheduledFor: row.scheduled_for,
    startedAt: row.started_at,
    ...(row.finished_at !== null ? { finishedAt: row.finished_at } : {}),
    status: row.status as CronRunStatus,
    delivered: row.delivered === 1,
    ...(row.error !== null ? { error: row.error } : {}),
  };
}

/** The job store over an open state database. */
export interface CronStore {
  /** Every job (of one agent when given), oldest first. */
  list(agentId?: string): CronJob[];
  get(id: string): CronJob | undefined;
  /** Stores a new job due at its first slot after `nowMs` (an `at` time in the past is due at once). */
  add(job: NewCronJob, nowMs: number): CronJob;
  /** Changes a job; a new schedule, or enabling it, recomputes its next run from `nowMs`. Undefined when there is no such job. */
  update(id: string, patch: CronJobPatch, nowMs: number): CronJob | undefined;
  /** Deletes a job (its runs stay in the history). False when there was none. */
  remove(id: string): boolean;
  /** The earliest due time of an enabled job, if any. */
  nextDueAt(): number | undefined;
  /**
   * Claims every enabled job due at `nowMs`, once each however many of its slots were missed: a
   * run row `running` is inserted and the job's next run moved to the first slot after `nowMs`
   * (a one-shot `at` job is disabled). One transaction.
   */
  claimDue(nowMs: number): ClaimedRun[];
  /** Claims one run of `id` now without moving its schedule (run now). Undefined when there is no such job. */
  claimManual(id: string, nowMs: number): ClaimedRun | undefined;
  /** Records how a claimed run ended and copies it to the job's last status. */
  finishRun(runId: number, outcome: { status: Exclude<CronRunStatus, "running">; delivered: boolean; error?: string }, nowMs: number): void;
  /** Marks runs left `running` by a gateway that stopped or crashed as `interrupted`; returns how many. */
  markInterrupted(nowMs: number): number;
  /** Runs, newest first (of one job when given), at most `limit` (default 50). */
  runs(options?: { jobId?: string; limit?: number }): CronRun[];
}

/** Eight random hex characters, unused by any job. */
function newJobId(db: StateDb): string {
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (!db.prepare("SELECT 1 FROM cron_jobs WHERE id = ?").get(id)) return id;
  }
}

/**
 * Opens the cron tables of `db`; `next` computes due times (the scheduler's `nextRunAfter`).
 * Nothing is cached: another process's changes are seen at the next call.
 */
export function createCronStore(db: StateDb, next: NextRunFn): CronStore {
  const getRow = (id: string) => db.prepare("SELECT * FROM cron_jobs WHERE id = ?").get(id) as JobRow | undefined;
  const firstDue = (schedule: CronSchedule, nowMs: number): number | undefined =>
    schedule.kind === "at" ? schedule.atMs : next(schedule, nowMs);
  const insertRun = (job: CronJob, trigger: "schedule" | "manual", scheduledFor: number, nowMs: number): number =>
    Number(
      db
        .prepare("INSERT INTO cron_runs (job_id, agent_id, trigger, scheduled_for, started_at, status) VALUES (?, ?, ?, ?, ?, 'running')")
        .run(job.id, job.agentId, trigger, scheduledFor, nowMs).lastInsertRowid,
    );

  return {
    list(agentId) {
      const rows = (
        agentId === undefined
          ? db.prepare("SELECT * FROM cron_jobs ORDER BY created_at, id").all()
          : db.prepare("SELECT * FROM cron_jobs WHERE agent_id = ? ORDER BY created_at, id").all(agentId)
      ) as JobRow[];
      return rows.map(jobOf);
    },

    get(id) {
      const row = getRow(id.trim().toLowerCase());
      return row ? jobOf(row) : undefined;
    },

    add(job, nowMs) {
      const id = newJobId(db);
      const enabled = job.enabled ?? true;
      const due = enabled ? firstDue(job.schedule, nowMs) : undefined;
      db.prepare(
        `INSERT INTO cron_jobs (id, agent_id, name, schedule_json, session, message, target, enabled, next_run_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        job.agentId,
        job.name ?? null,
        JSON.stringify(job.schedule),
        job.session,
        job.message,
        job.target,
        enabled ? 1 : 0,
        due ?? null,
        nowMs,
        nowMs,
      );
      return jobOf(getRow(id)!);
    },

    update(id, patch, nowMs) {
      const tx = db.transaction((): CronJob | undefined => {
        const row = getRow(id.trim().toLowerCase());
        if (!row) return undefined;
        const job = jobOf(row);
        const schedule = patch.schedule ?? job.schedule;
        const enabled = patch.enabled ?? job.enabled;
        const reschedule = patch.schedule !== undefined || (enabled && !job.enabled);
        const due = !enabled ? undefined : reschedule ? firstDue(schedule, nowMs) : job.nextRunAt;
        db.prepare(
          `UPDATE cron_jobs SET name = ?, schedule_json = ?, session = ?, message = ?, target = ?, enabled = ?, next_run_at = ?, updated_at = ?
           WHERE id = ?`,
        ).run(
          patch.name === null ? null : (patch.name ?? job.name ?? null),
          JSON.stringify(schedule),
          patch.session ?? job.session,
          patch.message ?? job.message,
          patch.target ?? job.target,
          enabled ? 1 : 0,
          due ?? null,
          nowMs,
          job.id,
        );
        return jobOf(getRow(job.id)!);
      });
      return tx.immediate();
    },

    remove(id) {
      return db.prepare("DELETE FROM cron_jobs WHERE id = ?").run(id.trim().toLowerCase()).changes > 0;
    },

    nextDueAt() {
      const row = db.prepare("SELECT MIN(next_run_at) AS due FROM cron_jobs WHERE enabled = 1").get() as { due: number | null };
      return row.due ?? undefined;
    },

    claimDue(nowMs) {
      const tx = db.transaction((): ClaimedRun[] => {
        const rows = db
          .prepare("SELECT * FROM cron_jobs WHERE enabled = 1 AND next_run_at <= ? ORDER BY next_run_at, id")
          .all(nowMs) as JobRow[];
        return rows.map((row) => {
          const job = jobOf(row);
          const following = job.schedule.kind === "at" ? undefined : next(job.schedule, nowMs);
          const runId = insertRun(job, "schedule", job.nextRunAt!, nowMs);
          db.prepare(
            "UPDATE cron_jobs SET next_run_at = ?, enabled = ?, last_run_at = ?, last_status = 'running', last_error = NULL, updated_at = ? WHERE id = ?",
          ).run(following ?? null, following === undefined ? 0 : 1, nowMs, nowMs, job.id);
          return { job, runId };
        });
      });
      return tx.immediate();
    },

    claimManual(id, nowMs) {
      const tx = db.transaction((): ClaimedRun | undefined => {
        const row = getRow(id.trim().toLowerCase());
        if (!row) return undefined;
        const job = jobOf(row);
        const runId = insertRun(job, "manual", nowMs, nowMs);
        db.prepare("UPDATE cron_jobs SET last_run_at = ?, last_status = 'running', last_error = NULL, updated_at = ? WHERE id = ?").run(
          nowMs,
          nowMs,
          job.id,
        );
        return { job, runId };
      });
      return tx.immediate();
    },

    finishRun(runId, outcome, nowMs) {
      db.transaction(() => {
        const run = db.prepare("SELECT job_id FROM cron_runs WHERE id = ?").get(runId) as { job_id: string } | undefined;
        db.prepare("UPDATE cron_runs SET status = ?, delivered = ?, error = ?, finished_at = ? WHERE id = ?").run(
          outcome.status,
          outcome.delivered ? 1 : 0,
          outcome.error ?? null,
          nowMs,
          runId,
        );
        if (run) {
          db.prepare("UPDATE cron_jobs SET last_status = ?, last_error = ? WHERE id = ?").run(
            outcome.status,
            outcome.error ?? null,
            run.job_id,
          );
        }
      })();
    },

    markInterrupted(nowMs) {
      return db.transaction(() => {
        const changed = db
          .prepare("UPDATE cron_runs SET status = 'interrupted', finished_at = ? WHERE status = 'running'")
          .run(nowMs).changes;
        db.prepare("UPDATE cron_jobs SET last_status = 'interrupted' WHERE last_status = 'running'").run();
        return changed;
      })();
    },

    runs(options = {}) {
      const limit = Math.max(1, Math.min(1000, options.limit ?? 50));
      const rows = (
        options.jobId === undefined
          ? db.prepare("SELECT * FROM cron_runs ORDER BY id DESC LIMIT ?").all(limit)
          : db.prepare("SELECT * FROM cron_runs WHERE job_id = ? ORDER BY id DESC LIMIT ?").all(options.jobId, limit)
      ) as RunRow[];
      return rows.map(runOf);
    },
  };
}
