import { readRegularFile } from "../tools/fs/regular-file.js";
import { resolveMemoryPath } from "./files.js";

export interface MemoryGetOptions {
  workspaceDir: string;
  /** `MEMORY.md` or `memory/...md`. */
  path: string;
  /** First line, 1-based (default 1). */
  from?: number;
  /** Number of lines (default: to the end). */
  lines?: number;
  /** Stops the read when it fires. */
  signal?: AbortSignal;
}

export interface MemoryGetResult {
  path: string;
  text: string;
  startLine: number;
  endLine: number;
  totalLines: number;
}

/**
 * Reads a memory file, or a line range of it. Only `MEMORY.md` and `memory/**.md` inside the
 * workspace are allowed (MemoryPathError otherwise); a FIFO, socket or device is refused
 * (NotRegularFileError). A range past the end yields empty text.
 */
export async function getMemoryFile(options: MemoryGetOptions): Promise<MemoryGetResult> {
  const target = resolveMemoryPath(options.workspaceDir, options.path);
  const raw = await readRegularFile(target.path, { display: target.relative, tool: "memory_get", signal: options.signal });
  const all = raw.toString("utf8").replace(/\r\n/g, "\n");
  const lines = all.endsWith("\n") ? all.slice(0, -1).split("\n") : all.split("\n");
  const totalLines = all === "" ? 0 : lines.length;
  const from = Math.max(1, Math.floor(options.from ?? 1));
  const count = options.lines === undefined ? totalLines : Math.max(0, Math.floor(options.lines));
  const slice = totalLines === 0 ? [] : lines.slice(from - 1, from - 1 + count);
  return { path: target.relative, text: slice.join("\n"), startLine: from, endLine: from + slice.length - 1, totalLines };
}
