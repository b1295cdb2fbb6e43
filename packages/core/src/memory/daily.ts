import fs from "node:fs/promises";
import path from "node:path";
import { readRegularFile } from "../tools/fs/regular-file.js";
import { MEMORY_DIR, resolveMemoryPathAsync } from "./files.js";

/** One day's memory note. */
export interface DailyMemoryFile {
  /** `YYYY-MM-DD` (local date). */
  date: string;
  /** `memory/YYYY-MM-DD.md`. */
  path: string;
  content: string;
}

/** `YYYY-MM-DD` of `date` in the local time zone. */
export function localDateStamp(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, "0");
  const d = String(date.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/**
 * The daily notes the prompt builder injects: `memory/<yesterday>.md` then `memory/<today>.md`
 * (local dates of `now`, oldest first). Missing, unreadable and blank files, anything but a
 * regular file (a FIFO there cannot block), and symlinks that leave the workspace, are left out.
 */
export async function dailyMemoryFiles(workspaceDir: string, now: Date = new Date()): Promise<DailyMemoryFile[]> {
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12);
  const listed = await memoryDirEntries(workspaceDir);
  const notes = await Promise.all(
    [yesterday, now].map(async (day): Promise<DailyMemoryFile | undefined> => {
      const date = localDateStamp(day);
      const rel = `${MEMORY_DIR}/${date}.md`;
      if (!listed.has(`${date}.md`)) return undefined;
      try {
        const file = (await resolveMemoryPathAsync(workspaceDir, rel)).path;
        const content = (await readRegularFile(file, { display: rel, tool: "the prompt builder" })).toString("utf8");
        return content.trim() !== "" ? { date, path: rel, content } : undefined;
      } catch {
        return undefined; // No note for that day.
      }
    }),
  );
  return notes.filter((n): n is DailyMemoryFile => n !== undefined);
}

/** The `memory/` listing of each workspace, reused while the folder's mtime stays (runs every turn). */
const listings = new Map<string, { mtimeNs: bigint; ino: bigint; entries: Set<string> }>();

/**
 * Workspaces without a `memory/` folder, with their own mtime then: creating the folder changes
 * it, so while it stays the folder is still missing (a successful stat of the workspace instead
 * of a failing one, whose error costs far more, every turn).
 */
const missing = new Map<string, { mtimeNs: bigint; ino: bigint }>();

async function memoryDirEntries(workspaceDir: string): Promise<Set<string>> {
  const dir = path.join(workspaceDir, MEMORY_DIR);
  const gone = missing.get(workspaceDir);
  if (gone) {
    const parent = await fs.stat(workspaceDir, { bigint: true }).catch(() => undefined);
    if (parent && parent.mtimeNs === gone.mtimeNs && parent.ino === gone.ino) return new Set();
    missing.delete(workspaceDir);
  }
  try {
    const stat = await fs.stat(dir, { bigint: true });
    const hit = listings.get(dir);
    if (hit && hit.mtimeNs === stat.mtimeNs && hit.ino === stat.ino) return hit.entries;
    const entries = new Set(await fs.readdir(dir));
    if (listings.size >= 512) listings.clear();
    listings.set(dir, { mtimeNs: stat.mtimeNs, ino: stat.ino, entries });
    return entries;
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT") {
      // The workspace's stamp from before this failed stat: a folder made in between changes it.
      const parent = await fs.stat(workspaceDir, { bigint: true }).catch(() => undefined);
      if (parent && !(await exists(dir))) {
        if (missing.size >= 512) missing.clear();
        missing.set(workspaceDir, { mtimeNs: parent.mtimeNs, ino: parent.ino });
      }
    }
    return new Set();
  }
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );
