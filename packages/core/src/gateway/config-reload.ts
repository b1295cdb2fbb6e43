import { existsSync, type FSWatcher, watch } from "node:fs";
import path from "node:path";
import type { ConfigReloadReport } from "../tools/index.js";
import type { GatewayLogger } from "./types.js";

/** Default quiet time after the last change of the config file before it is read. */
export const DEFAULT_RELOAD_DEBOUNCE_MS = 300;

export interface ConfigReloaderOptions {
  /** The config file to watch. */
  file: string;
  /** Quiet time after the last change before reloading; default {@link DEFAULT_RELOAD_DEBOUNCE_MS}. */
  debounceMs?: number;
  /** Reads and validates the file; throws (a `ConfigError` listing every problem) when it is invalid. */
  load(): Promise<unknown>;
  /** Applies a valid config (see `planReload`); called one at a time. */
  apply(next: unknown): Promise<ConfigReloadReport>;
  log: GatewayLogger;
}

/**
 * Watches the config file and reloads it: every change (an edit in place or an atomic rename
 * over it, as `openclaw config set` writes) restarts a debounce timer; then the file is read and
 * validated, and applied when valid. An invalid file is logged with every problem and the
 * running config is kept, and so it is while the file is missing. The folder is watched, not the file, so a rename over the file is
 * seen; files beside it (`.bak`, the lock) are ignored. Reloads never overlap.
 */
export class ConfigReloader {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: ConfigReloaderOptions) {}

  /** Starts watching; a folder that cannot be watched is logged and reloads then only come from {@link reloadNow}. */
  start(): void {
    const { file, log } = this.options;
    const name = path.basename(file);
    try {
      this.watcher = watch(path.dirname(file), { persistent: false }, (_event, changed) => {
        if (changed === null || changed.toString() === name) this.schedule();
      });
      this.watcher.on("error", (err) => log.warn(`config reload: stopped watching ${file}: ${err.message}`));
    } catch (err) {
      log.warn(`config reload: cannot watch ${file} (${(err as Error).message}); edits apply after a restart or the gateway tool's reload`);
    }
  }

  /** Reads, validates and applies the file now (after any reload in progress). */
  reloadNow(): Promise<ConfigReloadReport> {
    const run = this.chain.then(() => this.reload());
    this.chain = run.catch(() => undefined);
    return run;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.watcher?.close();
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.reloadNow().catch((err) => this.options.log.error(`config reload failed: ${(err as Error).message}`));
    }, this.options.debounceMs ?? DEFAULT_RELOAD_DEBOUNCE_MS);
    this.timer.unref?.();
  }

  private async reload(): Promise<ConfigReloadReport> {
    const { file, log } = this.options;
    if (!existsSync(file)) {
      // A missing file would load as the defaults (no channels): never apply that to a running gateway.
      const problems = `${file} is gone; restore it (the previous version is ${file}.bak) or stop the gateway to start over with the defaults.`;
      log.warn(`config reload: the gateway keeps running on the previous config: ${problems}`);
      return { outcome: "invalid", applied: [], needsRestart: [], problems };
    }
    let next: unknown;
    try {
      next = await this.options.load();
    } catch (err) {
      const problems = (err as Error).message;
      log.warn(`config reload: ${file} is invalid; the gateway keeps running on the previous config. ${problems}`);
      return { outcome: "invalid", applied: [], needsRestart: [], problems };
    }
    if (this.closed) return { outcome: "unchanged", applied: [], needsRestart: [] };
    return this.options.apply(next);
  }
}
