import { withConfigLock } from "./lock.js";
import { type ConfigSource, readConfigSource } from "./read.js";
import { configText, type WriteConfigFileOptions, type WriteConfigFileResult, writeLocked } from "./write.js";

export interface UpdateConfigFileResult extends WriteConfigFileResult {
  /** False when `update` returned `undefined` and nothing was written. */
  written: boolean;
}

/**
 * A read-modify-write of the config file that no other OpenClaw process can interleave with:
 * takes the file's cross-process lock (waiting up to `lockWaitMs`, see `withConfigLock`), reads
 * the file as written (`readConfigSource`), calls `update` with it, and writes what `update`
 * returns exactly as `writeConfigFile` does (atomic, with rotated `.bak` backups). When `update`
 * returns `undefined` nothing is written; when it throws, nothing is written and the error
 * propagates. The lock is released in every case. `update` must not write the file itself.
 */
export async function updateConfigFile(
  file: string,
  update: (source: ConfigSource) => unknown | Promise<unknown>,
  opts: WriteConfigFileOptions = {},
): Promise<UpdateConfigFileResult> {
  return withConfigLock(
    file,
    async (lock) => {
      const next = await update(await readConfigSource(file));
      if (next === undefined) return { written: false };
      return { written: true, ...(await writeLocked(file, configText(next), lock, opts)) };
    },
    opts,
  );
}
