import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { ToolError } from "../../tool-contract/index.js";
import { readRegularFile } from "../fs/regular-file.js";
import { applyChunks } from "./apply-chunks.js";
import type { PatchHunk } from "./parse.js";

/** Where a patch path points: the file to touch and how to name it in messages. */
export interface PatchTarget {
  path: string;
  display: string;
}

interface FileState {
  display: string;
  /** Content before the patch; null when the file did not exist. */
  original: string | null;
  /** Content after the hunks so far; null when (to be) deleted. */
  current: string | null;
}

/** One line of the summary: A(dded), M(odified), D(eleted), R(enamed). */
export interface PatchChange {
  op: "A" | "M" | "D" | "R";
  path: string;
  from?: string;
}

/** The file's text, or null when it does not exist; FIFOs, devices and directories are refused. */
async function readOrNull(target: PatchTarget, signal: AbortSignal | undefined): Promise<string | null> {
  try {
    return (await readRegularFile(target.path, { display: target.display, tool: "apply_patch", signal })).toString("utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Computes every file's new content in memory (nothing is written), applying hunks in order;
 * a later hunk sees the result of an earlier one on the same file. Throws on the first hunk
 * that cannot apply, on a path that is not a regular file, and when `signal` aborts.
 */
export async function stagePatch(
  hunks: readonly PatchHunk[],
  resolve: (p: string) => PatchTarget,
  signal?: AbortSignal,
): Promise<{ files: Map<string, FileState>; changes: PatchChange[] }> {
  const files = new Map<string, FileState>();
  const load = async (userPath: string): Promise<FileState> => {
    const target = resolve(userPath);
    let state = files.get(target.path);
    if (!state) {
      const original = await readOrNull(target, signal);
      state = { display: target.display, original, current: original };
      files.set(target.path, state);
    }
    return state;
  };
  const changes: PatchChange[] = [];
  for (const hunk of hunks) {
    if (hunk.type === "add") {
      const state = await load(hunk.path);
      state.current = hunk.content;
      changes.push({ op: "A", path: state.display });
    } else if (hunk.type === "delete") {
      const state = await load(hunk.path);
      if (state.current === null) throw new ToolError(`cannot delete "${hunk.path}": it does not exist.`);
      state.current = null;
      changes.push({ op: "D", path: state.display });
    } else {
      const state = await load(hunk.path);
      if (state.current === null)
        throw new ToolError(`cannot update "${hunk.path}": it does not exist. Use "*** Add File: ${hunk.path}" to create it.`);
      const updated = applyChunks(state.current, hunk.chunks, state.display);
      if (hunk.moveTo !== undefined) {
        const dest = await load(hunk.moveTo);
        if (dest === state) {
          state.current = updated;
          changes.push({ op: "M", path: state.display });
          continue;
        }
        dest.current = updated;
        state.current = null;
        changes.push({ op: "R", path: dest.display, from: state.display });
      } else {
        state.current = updated;
        changes.push({ op: "M", path: state.display });
      }
    }
  }
  return { files, changes };
}

/**
 * Writes the staged result all-or-nothing: new contents go to temp files first, then are renamed
 * into place, then deletions run; if any step fails, files already changed get their original
 * content back (or are removed when they did not exist) and the error is rethrown.
 */
export async function commitStaged(files: Map<string, FileState>): Promise<void> {
  const pending = [...files.entries()].filter(([, s]) => s.current !== s.original);
  const temps = new Map<string, string>();
  const done: Array<[string, FileState]> = [];
  try {
    for (const [file, state] of pending) {
      if (state.current === null) continue;
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.patch-tmp`);
      await fs.writeFile(tmp, state.current, { flag: "wx" });
      temps.set(file, tmp);
    }
    for (const [file, state] of pending) {
      const tmp = temps.get(file);
      if (tmp !== undefined) {
        if (state.original !== null) {
          const mode = (await fs.stat(file)).mode & 0o7777;
          await fs.chmod(tmp, mode);
        }
        await fs.rename(tmp, file);
        temps.delete(file);
        done.push([file, state]);
      }
    }
    for (const [file, state] of pending) {
      if (state.current === null && state.original !== null) {
        await fs.rm(file);
        done.push([file, state]);
      }
    }
  } catch (err) {
    for (const [file, state] of done.reverse()) {
      try {
        if (state.original === null) await fs.rm(file, { force: true });
        else await fs.writeFile(file, state.original);
      } catch {
        // Best effort: the original error below says what failed.
      }
    }
    throw err;
  } finally {
    for (const tmp of temps.values()) await fs.rm(tmp, { force: true });
  }
}
