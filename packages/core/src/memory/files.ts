import { promises as fs, realpathSync } from "node:fs";
import path from "node:path";

/** The long-term memory file at the workspace root. */
export const MEMORY_ROOT_FILE = "MEMORY.md";
/** The folder of dated and topical memory notes. */
export const MEMORY_DIR = "memory";

/** A memory file found in the workspace. */
export interface MemoryFileEntry {
  /** Workspace-relative path with `/` separators: `MEMORY.md` or `memory/...md`. */
  relative: string;
  /** Absolute real path. */
  path: string;
  mtimeMs: number;
  size: number;
}

/** The memory tools could not use a path; the message says why and what is allowed. */
export class MemoryPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MemoryPathError";
  }
}

function inside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** True for `MEMORY.md` and `memory/<...>.md` (workspace-relative, `/` separators, no `..`). */
export function isMemoryPath(relative: string): boolean {
  if (relative === MEMORY_ROOT_FILE) return true;
  const parts = relative.split("/");
  return (
    parts.length >= 2 &&
    parts[0] === MEMORY_DIR &&
    relative.toLowerCase().endsWith(".md") &&
    parts.every((p) => p !== "" && p !== "." && p !== "..")
  );
}

/**
 * Validates a path given to memory_get and returns its real location. Accepts `MEMORY.md` and
 * `memory/**.md` (a leading `./` and backslashes are tolerated); refuses everything else, and a
 * file whose real path (symlinks followed) leaves the workspace.
 */
export function resolveMemoryPath(workspaceDir: string, userPath: string): { relative: string; path: string } {
  const relative = path.posix.normalize(userPath.trim().replace(/\\/g, "/")).replace(/^\.\//, "");
  if (!isMemoryPath(relative)) {
    throw new MemoryPathError(
      `"${userPath}" is not a memory file; memory_get reads only MEMORY.md and memory/*.md (e.g. "memory/2025-01-31.md"). Use read for other files.`,
    );
  }
  const root = realpathSync(workspaceDir);
  const abs = path.join(root, ...relative.split("/"));
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    throw new MemoryPathError(`Memory file "${relative}" does not exist. memory_search lists the memory files that match a query.`);
  }
  if (!inside(root, real))
    throw new MemoryPathError(`Memory file "${relative}" is a symlink to "${real}", outside the workspace; refusing to read it.`);
  return { relative, path: real };
}

async function statEntry(root: string, relative: string): Promise<MemoryFileEntry | undefined> {
  const abs = path.join(root, ...relative.split("/"));
  try {
    const real = await fs.realpath(abs);
    if (!inside(root, real)) return undefined;
    const stat = await fs.stat(real);
    return stat.isFile() ? { relative, path: real, mtimeMs: stat.mtimeMs, size: stat.size } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lists `MEMORY.md` and every `memory/**.md` (recursively, hidden entries skipped) whose real path
 * stays inside the workspace, sorted by path.
 */
export async function listMemoryFiles(workspaceDir: string): Promise<MemoryFileEntry[]> {
  const root = await fs.realpath(workspaceDir);
  const out: MemoryFileEntry[] = [];
  const rootFile = await statEntry(root, MEMORY_ROOT_FILE);
  if (rootFile) out.push(rootFile);
  const walk = async (relDir: string, depth: number): Promise<void> => {
    if (depth > 8) return;
    let names: string[];
    try {
      names = await fs.readdir(path.join(root, ...relDir.split("/")));
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (name.startsWith(".")) continue;
      const rel = `${relDir}/${name}`;
      if (name.toLowerCase().endsWith(".md")) {
        const entry = await statEntry(root, rel);
        if (entry) out.push(entry);
        continue;
      }
      const real = await fs.realpath(path.join(root, ...rel.split("/"))).catch(() => undefined);
      if (real && inside(root, real) && (await fs.stat(real)).isDirectory()) await walk(rel, depth + 1);
    }
  };
  await walk(MEMORY_DIR, 0);
  return out.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}
