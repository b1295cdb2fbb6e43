import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import path from "node:path";

/** The files `openclaw setup` writes from templates, in prompt order. */
export const TEMPLATE_FILE_NAMES = ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md"] as const;
/** The one-shot first-run file; only ever written into a brand-new workspace. */
export const BOOTSTRAP_FILE_NAME = "BOOTSTRAP.md";
/** Long-term memory; injected only when it exists at the workspace root. */
export const MEMORY_FILE_NAME = "MEMORY.md";
/** Every bootstrap file, in the order they appear in the prompt. */
export const BOOTSTRAP_FILE_NAMES = [...TEMPLATE_FILE_NAMES, BOOTSTRAP_FILE_NAME, MEMORY_FILE_NAME] as const;

export type BootstrapFileName = (typeof BOOTSTRAP_FILE_NAMES)[number];

/** Files bigger than this are read as their first and last half of it (the middle can never be injected). */
export const MAX_BOOTSTRAP_READ_BYTES = 2 * 1024 * 1024;

/** One bootstrap file as found on disk. */
export interface WorkspaceBootstrapFile {
  name: BootstrapFileName;
  /** Absolute path. */
  path: string;
  /** True when the file does not exist or cannot be read. */
  missing: boolean;
  /** The text read (for files over 2 MiB: first 1 MiB + last 1 MiB); undefined when missing. */
  content?: string;
  /** Length of the file in UTF-16 characters; for files over 2 MiB, their size in bytes. */
  rawChars: number;
}

// Bootstrap files are small and read on every turn: synchronous reads skip a thread-pool round
// trip per call (open, stat, read, close) and cost microseconds. O_NONBLOCK and the fstat check
// keep a FIFO or device put in place of a bootstrap file from blocking the main thread: it reads
// as missing.
async function readCapped(file: string): Promise<{ content: string; rawChars: number }> {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Error(`${file} is not a regular file`);
    const { size } = stats;
    if (size <= MAX_BOOTSTRAP_READ_BYTES) {
      const content = readFileSync(fd, { encoding: "utf8" });
      return { content, rawChars: content.length };
    }
    const half = MAX_BOOTSTRAP_READ_BYTES / 2;
    const head = Buffer.alloc(half);
    const tail = Buffer.alloc(half);
    readSync(fd, head, 0, half, 0);
    readSync(fd, tail, 0, half, size - half);
    // Slices may cut a multi-byte character; the decoder turns those bytes into U+FFFD at the far
    // ends only, which truncation never keeps.
    return { content: head.toString("utf8") + tail.toString("utf8"), rawChars: size };
  } finally {
    closeSync(fd);
  }
}

export async function loadWorkspaceBootstrapFiles(workspaceDir: string): Promise<WorkspaceBootstrapFile[]> {
  const dir = path.resolve(workspaceDir);
  let entries: Set<string>;
  try {
    entries = new Set(readdirSync(dir));
  } catch {
    entries = new Set();
  }
  const files: WorkspaceBootstrapFile[] = [];
  for (const name of BOOTSTRAP_FILE_NAMES) {
    const file = path.join(dir, name);
    const optional = name === MEMORY_FILE_NAME || name === BOOTSTRAP_FILE_NAME;
    if (optional && !entries.has(name)) continue;
    try {
      const { content, rawChars } = await readCapped(file);
      files.push({ name, path: file, missing: false, content, rawChars });
    } catch {
      files.push({ name, path: file, missing: true, rawChars: 0 });
    }
  }
  return files;
}
