// The gateway's backup rhythm: one round at start, then one every few hours while it runs.
import { backupDatabase, DEFAULT_BACKUPS_KEPT, removeLeftoverTemporaries } from "./backups.js";
import { backupsDir, listDatabaseFiles } from "./catalog.js";

/** Time between two backup rounds of a running gateway: 6 hours. */
export const DEFAULT_BACKUP_INTERVAL_MS = 6 * 3600_000;

/** Timer functions, injectable so tests drive the schedule without waiting. */
export interface BackupTimers {
  /** `callback` returns the round's promise (resolved once the next round is scheduled); never rejects. */
  setTimeout(callback: () => Promise<void>, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface BackupScheduleOptions {
  stateDir: string;
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
  /** Between two rounds; default {@link DEFAULT_BACKUP_INTERVAL_MS}. */
  intervalMs?: number;
  /** Backups kept per database; default 3. */
  keep?: number;
  /** Names the backup files; default `Date.now`. */
  now?: () => number;
  /** Default: the global timers (unref'd, so they never keep the process alive). */
  timers?: BackupTimers;
}

/** What one round did. */
export interface BackupRound {
  /** Backup files written. */
  saved: string[];
  /** Database files not backed up because they look damaged. */
  damaged: string[];
  /** Database files whose backup failed for another reason (disk full, permissions). */
  failed: string[];
}

const defaultTimers: BackupTimers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Backs up every database of the state folder (the state database and each agent's session
 * database present at that moment). `start()` deletes the temporary files a killed gateway left
 * behind, runs a round now and another `intervalMs` after each round ends; `stop()` cancels the
 * next one and waits for a round in progress. A database that looks damaged is not backed up (its
 * earlier backups stay) and is logged as an error naming the file and the fix.
 */
export class BackupSchedule {
  private timer: unknown;
  private running: Promise<BackupRound> | undefined;
  private stopped = false;
  private readonly timers: BackupTimers;

  constructor(private readonly options: BackupScheduleOptions) {
    this.timers = options.timers ?? defaultTimers;
  }

  /**
   * Runs the first round now and schedules the next ones. The promise (which never rejects)
   * resolves once the first round is done and the next is scheduled; the gateway does not wait.
   */
  start(): Promise<void> {
    removeLeftoverTemporaries(this.options.stateDir);
    return this.tick();
  }

  /** Runs one round now (waiting for one already in progress first). */
  async runOnce(): Promise<BackupRound> {
    while (this.running) await this.running;
    this.running = this.round();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /** Cancels the next round and waits for the one in progress, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    this.timer = undefined;
    await this.runOnce().catch((err: unknown) => this.options.log.warn(`backups: the round failed: ${(err as Error).message}`));
    if (!this.stopped) {
      this.timer = this.timers.setTimeout(() => this.tick(), this.options.intervalMs ?? DEFAULT_BACKUP_INTERVAL_MS);
    }
  }

  private async round(): Promise<BackupRound> {
    const { stateDir, log } = this.options;
    const keep = this.options.keep ?? DEFAULT_BACKUPS_KEPT;
    const result: BackupRound = { saved: [], damaged: [], failed: [] };
    for (const db of listDatabaseFiles(stateDir)) {
      try {
        const outcome = await backupDatabase(db, { stateDir, keep, now: (this.options.now ?? Date.now)() });
        if (outcome.ok) {
          result.saved.push(outcome.file);
          continue;
        }
        result.damaged.push(db.file);
        log.error(
          `backups: ${db.what.toLowerCase()} ${db.file} looks damaged (${outcome.detail}); no backup was taken and the earlier ones are kept. ` +
            "Stop the gateway and run `openclaw doctor` (it restores the newest good backup with --fix).",
        );
      } catch (err) {
        result.failed.push(db.file);
        log.warn(`backups: could not back up ${db.file}: ${(err as Error).message}`);
      }
    }
    if (result.saved.length > 0) {
      log.info(`backups: saved ${result.saved.length} database(s) to ${backupsDir(stateDir)} (the newest ${keep} of each are kept)`);
    }
    return result;
  }
}
