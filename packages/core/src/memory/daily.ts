import { readRegularFile } from "../tools/fs/regular-file.js";
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
  const out: DailyMemoryFile[] = [];
  for (const day of [yesterday, now]) {
    const date = localDateStamp(day);
    const rel = `${MEMORY_DIR}/${date}.md`;
    try {
      const file = resolveMemoryPath(workspaceDir, rel).path;
      const content = (await readRegularFile(file, { display: rel, tool: "the prompt builder" })).toString("utf8");
      if (content.trim() !== "") out.push({ date, path: rel, content });
    } catch {
      // No note for that day.
    }
  }
  return out;
}
