import { statSync } from "node:fs";
import { chmod } from "node:fs/promises";
import { emptyResult, type DoctorStep } from "./types.js";

async function modeOf(p: string): Promise<number | undefined> {
  try {
    return statSync(p).mode & 0o777;
  } catch {
    return undefined;
  }
}

/** The config holds secrets: it and the state folder must not be readable by other users. */
export const permissionsStep: DoctorStep = {
  id: "permissions",
  title: "Permissions",
  async run({ paths, fix }) {
    const result = emptyResult();
    if (process.platform === "win32") return result;
    const targets: [string, number][] = [
      [paths.stateDir, 0o700],
      [paths.configPath, 0o600],
    ];
    for (const [target, wanted] of targets) {
      const mode = await modeOf(target);
      if (mode === undefined || (mode & 0o077) === 0) continue;
      const line = `${target} is readable by other users (mode ${mode.toString(8)}) -> chmod ${wanted.toString(8)}`;
      if (fix) await chmod(target, wanted);
      result.changes.push(line);
    }
    return result;
  },
};
