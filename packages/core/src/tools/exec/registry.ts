import { JobLog } from "./output-buffer.js";
import { ShellProcess, type ShellExit } from "./shell.js";

export type JobStatus = "running" | "exited" | "killed" | "timed_out" | "failed";

/** A command left running in the background by exec. */
export class BackgroundJob {
  readonly log: JobLog;
  private changeWaiters = new Set<() => void>();
  timedOut = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly id: string,
    readonly command: string,
    readonly sessionKey: string,
    readonly shell: ShellProcess,
    maxOutputChars: number,
    readonly timeoutMs: number | undefined,
  ) {
    this.log = new JobLog(maxOutputChars);
    shell.onOutput((text) => {
      this.log.append(text);
      this.notify();
    });
    if (timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        void shell.kill();
      }, timeoutMs);
      this.timer.unref();
    }
    void shell.done.then(() => {
      if (this.timer) clearTimeout(this.timer);
      this.notify();
    });
  }

  get status(): JobStatus {
    const exit = this.shell.exit;
    if (!exit) return "running";
    if (exit.spawnError) return "failed";
    if (this.timedOut) return "timed_out";
    if (this.shell.killed) return "killed";
    return "exited";
  }

  get exit(): ShellExit | undefined {
    return this.shell.exit;
  }

  private notify(): void {
    const waiters = [...this.changeWaiters];
    this.changeWaiters.clear();
    for (const w of waiters) w();
  }

  /** Resolves when new output arrives, the job ends, `ms` pass, or `signal` aborts (whichever is first). */
  waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || this.log.hasUnread || !this.shell.running || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.changeWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
      this.changeWaiters.add(done);
    });
  }

  /** Resolves when the job has ended, or after `ms`. */
  async waitForExit(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.shell.done, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }
}

export interface StartJobOptions {
  command: string;
  cwd: string;
  sessionKey: string;
  maxOutputChars: number;
  /** Kill the job after this long (default: no limit). */
  timeoutMs?: number;
  /** The run's abort signal: aborting kills the job. */
  signal?: AbortSignal;
  /** The job's whole environment (default: the gateway's environment scrubbed of secrets, see `buildExecEnv`). */
  env?: Record<string, string>;
}

/**
 * Background exec jobs of one agent run. Jobs are visible only to the session that started them,
 * die when the starting call's abort signal fires, and are all killed by {@link dispose}.
 */
export class ProcessRegistry {
  private readonly jobs = new Map<string, BackgroundJob>();
  private counter = 0;

  /** Starts `command` as a background job. */
  start(options: StartJobOptions): BackgroundJob {
    const shell = new ShellProcess({ command: options.command, cwd: options.cwd, ...(options.env ? { env: options.env } : {}) });
    const id = `job-${++this.counter}`;
    const job = new BackgroundJob(id, options.command, options.sessionKey, shell, options.maxOutputChars, options.timeoutMs);
    this.jobs.set(id, job);
    const signal = options.signal;
    if (signal) {
      const onAbort = () => void shell.kill();
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener("abort", onAbort, { once: true });
        void shell.done.then(() => signal.removeEventListener("abort", onAbort));
      }
    }
    return job;
  }

  /** The job with this id, if it belongs to `sessionKey` (any session when omitted). */
  get(id: string, sessionKey?: string): BackgroundJob | undefined {
    const job = this.jobs.get(id.trim());
    return job && (sessionKey === undefined || job.sessionKey === sessionKey) ? job : undefined;
  }

  /** Jobs of `sessionKey` (all when omitted), oldest first. */
  list(sessionKey?: string): BackgroundJob[] {
    return [...this.jobs.values()].filter((j) => sessionKey === undefined || j.sessionKey === sessionKey);
  }

  /** Forgets a job (it keeps running if it was). */
  remove(id: string): void {
    this.jobs.delete(id);
  }

  /** Kills every running job and waits until all have exited. */
  async dispose(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((j) => j.shell.kill()));
  }
}

/** A fresh registry; create one per agent run and `dispose()` it when the run ends. */
export function createProcessRegistry(): ProcessRegistry {
  return new ProcessRegistry();
}
