import { randomBytes } from "node:crypto";
import { chmod, copyFile, lstat, mkdir, open, realpath, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { ConfigFileError } from "./errors.js";
import { type ConfigLockOptions, type HeldConfigLock, withConfigLock } from "./lock.js";

/** How many previous versions a write keeps: `<file>.bak` (newest), then `.bak.1` … `.bak.4`. */
export const CONFIG_BACKUP_GENERATIONS = 5;

export interface WriteConfigFileOptions extends ConfigLockOptions {
  /** Keep the previous file as `<file>.bak`, shifting older backups along. Default true. */
  backup?: boolean;
  /** Permission bits of the written file (and of the backup). Default 0o600. */
  mode?: number;
}

export interface WriteConfigFileResult {
  /** `<file>.bak` when a previous file existed and was backed up. */
  backupPath?: string;
}

/** The backup files of `file`, newest first: `<file>.bak`, `<file>.bak.1`, … */
export function configBackupPaths(file: string): string[] {
  const base = `${path.resolve(file)}.bak`;
  return Array.from({ length: CONFIG_BACKUP_GENERATIONS }, (_, i) => (i === 0 ? base : `${base}.${i}`));
}

/**
 * Writes `value` as 2-space JSON with a trailing newline (valid JSON and JSON5), atomically and
 * under the config file's cross-process lock (see `withConfigLock`; a blind write: to change
 * what is there, use `updateConfigFile`). The text goes to a temp file in the same folder (mode
 * 0o600, fsynced), which is then renamed over `file`. A previous file is first kept as
 * `<file>.bak`; the backups before it move along to `.bak.1` … `.bak.4` and the oldest is dropped
 * (`CONFIG_BACKUP_GENERATIONS`). The parent folder is created with mode 0o700 when missing. If
 * `file` is a symlink, the file it points to is replaced and the link kept (backups and the lock
 * sit beside the link). No temp file is left behind on failure. Throws `ConfigFileError` when the
 * file cannot be locked or written; `TypeError` when `value` has no JSON form (e.g. `undefined`).
 */
export async function writeConfigFile(file: string, value: unknown, opts: WriteConfigFileOptions = {}): Promise<WriteConfigFileResult> {
  const text = configText(value);
  return withConfigLock(file, (lock) => writeLocked(file, text, lock, opts), opts);
}

/** The file text for `value`; `TypeError` when it has no JSON form. */
export function configText(value: unknown): string {
  const text = JSON.stringify(value, null, 2) as string | undefined;
  if (text === undefined) throw new TypeError("writeConfigFile: the value has no JSON representation");
  return `${text}\n`;
}

/** The write itself; the caller holds the lock on `file`. */
export async function writeLocked(
  file: string,
  text: string,
  lock: HeldConfigLock,
  opts: WriteConfigFileOptions,
): Promise<WriteConfigFileResult> {
  const mode = opts.mode ?? 0o600;
  const target = path.resolve(file);
  try {
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const existing = await existingFile(target);
    const result: WriteConfigFileResult = {};
    lock.assertHeld();
    if (existing && opts.backup !== false) {
      result.backupPath = await rotateBackups(target, existing, mode);
    }
    const destination = existing ?? target;
    await atomicReplace(destination, mode, async (tmp) => {
      const handle = await open(tmp, "wx", mode);
      try {
        await handle.writeFile(text, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      lock.assertHeld();
    });
    await syncDir(path.dirname(destination));
    return result;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!code) throw err;
    throw new ConfigFileError(target, {
      file: target,
      message: `cannot be written (${code}: ${(err as Error).message}). Check that its folder exists, is writable, and that the path is not a directory.`,
    });
  }
}

/** Shifts `.bak` → `.bak.1` → … (dropping the oldest), then copies `existing` to `.bak`. */
async function rotateBackups(target: string, existing: string, mode: number): Promise<string> {
  const backups = configBackupPaths(target);
  for (let i = backups.length - 1; i > 0; i--) {
    await rename(backups[i - 1]!, backups[i]!).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
    });
  }
  const newest = backups[0]!;
  await atomicReplace(newest, mode, (tmp) => copyFile(existing, tmp));
  return newest;
}

/** Real path of an existing file at `target` (following a symlink), or undefined when absent. */
async function existingFile(target: string): Promise<string | undefined> {
  try {
    const info = await lstat(target);
    return info.isSymbolicLink() ? await realpath(target) : info.isFile() ? target : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Lets `fill` create a temp file beside `destination`, then renames it over `destination`. */
async function atomicReplace(destination: string, mode: number, fill: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = path.join(path.dirname(destination), `.${path.basename(destination)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await fill(tmp);
    await chmod(tmp, mode);
    await rename(tmp, destination);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** Makes the rename durable where the platform allows fsync on a directory. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported on every platform (e.g. Windows); the data itself is already fsynced.
  }
}
