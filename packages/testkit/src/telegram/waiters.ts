/** Change notification for long polls and `waitFor`: everything re-checks on `notify()`. */
export interface Waiters {
  /** Wakes `changed()` promises and re-checks every pending `waitFor` predicate. */
  notify(): void;
  /** Resolves on the next `notify()`. */
  changed(): Promise<void>;
  /** Resolves with the predicate's first truthy value; rejects after `timeoutMs` (default 5000) with `describe()` appended. */
  waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs: number | undefined, describe: () => string): Promise<T>;
  /** Rejects every pending `waitFor` (the server is closing). */
  rejectAll(error: Error): void;
}

export function createWaiters(): Waiters {
  let wakeups: Array<() => void> = [];
  const checks = new Set<{ check: () => void; fail: (error: Error) => void }>();
  return {
    notify() {
      const pending = wakeups;
      wakeups = [];
      for (const wake of pending) wake();
      for (const entry of [...checks]) entry.check();
    },
    changed() {
      return new Promise((resolve) => wakeups.push(resolve));
    },
    waitFor<T>(predicate: () => T | undefined | null | false, timeoutMs = 5000, describe: () => string = () => "") {
      return new Promise<T>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const entry = {
          check: () => {
            let value: T | undefined | null | false;
            try {
              value = predicate();
            } catch (error) {
              done();
              reject(error);
              return;
            }
            if (value) {
              done();
              resolve(value);
            }
          },
          fail: (error: Error) => {
            done();
            reject(error);
          },
        };
        function done() {
          if (timer) clearTimeout(timer);
          checks.delete(entry);
        }
        checks.add(entry);
        entry.check();
        if (!checks.has(entry)) return;
        timer = setTimeout(() => entry.fail(new Error(`waitFor timed out after ${timeoutMs} ms; ${describe()}`)), timeoutMs);
      });
    },
    rejectAll(error) {
      for (const entry of [...checks]) entry.fail(error);
    },
  };
}
