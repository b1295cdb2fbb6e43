import path from "node:path";
import { readRegularFile } from "../tools/fs/regular-file.js";
import { cachedListing } from "../workspace/dir-listing.js";
import { MEMORY_DIR, resolveMemoryPath } from "./files.js";

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
        // Synchronous realpaths, like the listings' stats (see workspace/dir-listing.ts).
        const file = resolveMemoryPath(workspaceDir, rel).path;
        const content = (await readRegularFile(file, { display: rel, tool: "the prompt builder" })).toString("utf8");
        return content.trim() !== "" ? { date, path: rel, content } : undefined;
      } catch {
        return undefined; // No note for that day.
      }
    }),
  );
  return notes.filter((n): n is DailyMemoryFile => n !== undefined);
}

/** The `memory/` listing of a workspace (runs every turn): no stat of it while the workspace's listing has no such folder. */
async function memoryDirEntries(workspaceDir: string): Promise<ReadonlySet<string>> {
  const top = await cachedListing(workspaceDir);
  return top.has(MEMORY_DIR) ? cachedListing(path.join(workspaceDir, MEMORY_DIR)) : new Set();
}
