import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import type { WhichFn } from "./types.js";

export interface WhichOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/**
 * Builds a PATH lookup that never spawns a process: it scans the PATH entries for a regular file
 * with the execute permission (on Windows: any file, trying each PATHEXT extension). A name that
 * contains a path separator is checked as given. Results are cached for the finder's lifetime.
 */
export function createWhich(options: WhichOptions = {}): WhichFn {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const windows = platform === "win32";
  const delimiter = windows ? ";" : ":";
  const pathVar = env.PATH ?? env.Path ?? "";
  const dirs = pathVar.split(delimiter).filter((d) => d !== "");
  const exts = windows ? ["", ...(env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "")] : [""];
  const cache = new Map<string, boolean>();
  const isExecutable = (file: string): boolean => {
    try {
      if (!statSync(file).isFile()) return false;
      if (!windows) accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  return (bin: string): boolean => {
    const hit = cache.get(bin);
    if (hit !== undefined) return hit;
    let found = false;
    if (bin !== "") {
      const candidates = /[\\/]/.test(bin) ? [path.resolve(bin)] : dirs.map((d) => path.join(d, bin));
      found = candidates.some((c) => exts.some((ext) => isExecutable(c + ext)));
    }
    cache.set(bin, found);
    return found;
  };
}
