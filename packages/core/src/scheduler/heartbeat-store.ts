// The heartbeat's last run per agent, in the state database (table `heartbeat_runs`).
import type { StateDb } from "../state/index.js";

/** How a heartbeat run ended. */
export type HeartbeatStatus =
  /** The reply was delivered to the target. */
  | "delivered"
  /** The reply was only the acknowledgement (or empty, or the silent token): nothing sent. */
  | "ack"
  /** There was something to say but no target (target "none", or "last" with no contact yet). */
  | "no-target"
  /** The run or its delivery failed; see the gateway log. */
  | "failed"
  /** Another heartbeat of the agent was already waiting or running. */
  | "skipped-busy";

export interface HeartbeatRunRecord {
  agentId: string;
  /** When the last run started (ms since the epoch); absent before the first run. */
  lastRunAt?: number;
  /** When the last run ended; the next one is due `every` after it. */
  lastFinishedAt?: number;
  lastStatus?: HeartbeatStatus;
  /** When the scheduler first saw this agent's heartbeat: the first run is due `every` after it. */
  firstSeenAt: number;
}

interface Row {
  agent_id: string;
  first_seen_at: number;
  last_run_at: number | null;
  last_finished_at: number | null;
  last_status: string | null;
}

/**
 * Last runs in the `heartbeat_runs` table, created on first use (`CREATE TABLE IF NOT EXISTS`,
 * so it needs no numbered migration). Each write is one autocommit statement.
 */
export class HeartbeatStore {
  private readonly q;

  constructor(db: StateDb) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS heartbeat_runs (
        agent_id         TEXT PRIMARY KEY,
        first_seen_at    INTEGER NOT NULL,
        last_run_at      INTEGER,
        last_finished_at INTEGER,
        last_status      TEXT
      ) STRICT;
    `);
    this.q = {
      get: db.prepare<[string], Row>("SELECT * FROM heartbeat_runs WHERE agent_id = ?"),
      seen: db.prepare<[string, number]>("INSERT INTO heartbeat_runs (agent_id, first_seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING"),
      finished: db.prepare<[string, number, number, number, string]>(
        `INSERT INTO heartbeat_runs (agent_id, first_seen_at, last_run_at, last_finished_at, last_status) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (agent_id) DO UPDATE SET last_run_at = excluded.last_run_at,
           last_finished_at = excluded.last_finished_at, last_status = excluded.last_status`,
      ),
    };
  }

  /** The agent's record; the first call for an agent records `now` as when it was first seen. */
  get(agentId: string, now: number): HeartbeatRunRecord {
    this.q.seen.run(agentId, now);
    const row = this.q.get.get(agentId)!;
    return {
      agentId,
      firstSeenAt: row.first_seen_at,
      ...(row.last_run_at !== null ? { lastRunAt: row.last_run_at } : {}),
      ...(row.last_finished_at !== null ? { lastFinishedAt: row.last_finished_at } : {}),
      ...(row.last_status !== null ? { lastStatus: row.last_status as HeartbeatStatus } : {}),
    };
  }

  /** Records a finished run. */
  recordRun(agentId: string, run: { startedAt: number; finishedAt: number; status: HeartbeatStatus }): void {
    this.q.finished.run(agentId, run.startedAt, run.startedAt, run.finishedAt, run.status);
  }
}

/** When the next scheduled run is due: `every` after the last run ended, else after the agent was first seen. */
export function nextHeartbeatDue(record: HeartbeatRunRecord, everyMs: number): number {
  return (record.lastFinishedAt ?? record.firstSeenAt) + everyMs;
}
