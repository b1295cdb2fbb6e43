import { mkdir } from "node:fs/promises";
import path from "node:path";
import { ConfigFileError } from "./errors.js";

/** How long a writer waits for another process's lock on the config file by default (30 s). */
export const CONFIG_LOCK_WAIT_MS = 30_000;

/**
 * A lock whose folder was not touched for this long belongs to a process that died (a holder
 * refreshes it every 5 s), and is taken over (15 s).
 */
export const CONFIG_LOCK_STALE_MS = 15_000;

export interface ConfigLockOptions {
  /** Longest wait for a lock another process holds, in ms. Default `CONFIG_LOCK_WAIT_MS`. */
  lockWaitMs?: number;
}

/** The lock as seen by the code holding it. */
export interface HeldConfigLock {
  /** Throws a `ConfigFileError` when another process has taken the lock over; call it right before writing. */
  assertHeld(): void;
}

/** The lock folder that guards `file`: `<file>.lock`, beside it. */
export function configLockPath(file: string): string {
  return `${path.resolve(file)}.lock`;
}

/**
 * Runs `fn` while holding the cross-process lock on the config file `file` (the folder
 * `<file>.lock`, created atomically; see `proper-lockfile`). Another process waits up to
 * `lockWaitMs`, then fails with a `ConfigFileError` naming the file and the lock. A lock left by
 * a process that died is taken over once it is `CONFIG_LOCK_STALE_MS` old; a lock is released
 * when `fn` settles and when the process exits. The lock is not re-entrant: do not call a locking
 * function for the same file from `fn`.
 */
export async function withConfigLock<T>(file: string, fn: (lock: HeldConfigLock) => Promise<T>, opts: ConfigLockOptions = {}): Promise<T> {
  const target = path.resolve(file);
  const lockPath = configLockPath(target);
  const waitMs = opts.lockWaitMs ?? CONFIG_LOCK_WAIT_MS;
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    // Loaded here, not at the top: proper-lockfile brings graceful-fs, which patches `fs` when it
    // loads, and most commands only read the config.
    const { default: lockfile } = await import("proper-lockfile");
    release = await lockfile.lock(target, {
      realpath: false,
      lockfilePath: lockPath,
      stale: CONFIG_LOCK_STALE_MS,
      update: 5_000,
      // Bounded by time, not count: `forever` cycles 20 back-off steps (a large `retries` would
      // precompute that many delays) until maxRetryTime, which `retry` reads as unbounded when 0.
      retries:
        waitMs > 0
          ? { forever: true, retries: 20, factor: 1.3, minTimeout: 20, maxTimeout: 250, randomize: true, maxRetryTime: waitMs }
          : 0,
      onCompromised: (err) => {
        compromised = err;
      },
    });
  } catch (err) {
    throw lockError(target, lockPath, waitMs, err as NodeJS.ErrnoException);
  }
  const held: HeldConfigLock = {
    assertHeld() {
      if (!compromised) return;
      throw new ConfigFileError(target, {
        file: target,
        message:
          `was not written: another process took over the lock ${lockPath} while this one was changing the config ` +
          "(this process stalled for longer than the stale time). Check the file and run the command again.",
      });
    },
  };
  try {
    return await fn(held);
  } finally {
    await release().catch(() => undefined);
  }
}

function lockError(file: string, lockPath: string, waitMs: number, err: NodeJS.ErrnoException): ConfigFileError {
  const message =
    // Out of time, `retry` may report its own timeout error rather than the last ELOCKED.
    err.code === "ELOCKED" || /RetryOperation timeout/.test(err.message)
      ? `is locked by another openclaw process (lock ${lockPath}); gave up after ${waitMs < 1000 ? `${waitMs} ms` : `${Math.round(waitMs / 1000)} s`}. ` +
        "Wait for the other command (or the gateway) to finish and run this again; if no openclaw process is running, delete the lock folder."
      : `cannot be locked for writing (lock ${lockPath}: ${err.code ?? ""} ${err.message}). Check that its folder exists and is writable.`;
  return new ConfigFileError(file, { file, message });
}
