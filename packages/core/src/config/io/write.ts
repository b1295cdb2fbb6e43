import { randomBytes } from "node:crypto";
import { chmod, copyFile, lstat, mkdir, open, realpath, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { ConfigFileError } from "./errors.js";

export interface WriteConfigFileOptions {
  /** Copy the previous file to `<file>.bak` before replacing it. Default true. */
  backup?: boolean;
  /** Permission bits of the written file (and of the backup). Default 0o600. */
  mode?: number;
}

export interface WriteConfigFileResult {
  /** `<file>.bak` when a previous file existed and was backed up. */
  backupPath?: string;
}

/**
 * Writes `value` as 2-space JSON with a trailing newline (valid JSON and JSON5), atomically:
 * the text goes to a temp file in the same folder (mode 0o600, fsynced), which is then renamed
 * over `file`. A previous file is first copied to `<file>.bak` (replacing an older backup, also
 * via temp file + rename). The parent folder is created with mode 0o700 when missing. If `file`
 * is a symlink, the file it points to is replaced and the link kept. No temp file is left behind
 * on failure. Throws `ConfigFileError` when the file cannot be written; `TypeError` when `value`
 * has no JSON form (e.g. `undefined`).
 */
export async function writeConfigFile(file: string, value: unknown, opts: WriteConfigFileOptions = {}): Promise<WriteConfigFileResult> {
  const text = JSON.stringify(value, null, 2) as string | undefined;
  if (text === undefined) throw new TypeError("writeConfigFile: the value has no JSON representation");
  const mode = opts.mode ?? 0o600;
  const target = path.resolve(file);
  try {
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const existing = await existingFile(target);
    const result: WriteConfigFileResult = {};
    if (existing && opts.backup !== false) {
      const backupPath = `${target}.bak`;
      await atomicReplace(backupPath, mode, (tmp) => copyFile(existing, tmp));
      result.backupPath = backupPath;
    }
    const destination = existing ?? target;
    await atomicReplace(destination, mode, async (tmp) => {
      const handle = await open(tmp, "wx", mode);
      try {
        await handle.writeFile(`${text}\n`, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
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
