import { constants, statSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { cachedListing } from "./dir-listing.js";
import { type FileStamp, rememberBounded, sameStamp, stampOf } from "./file-stamp.js";

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

// Bootstrap files are read for every turn, and almost never change: each is stat'ed and read
// again only when its identity, size, mtime or ctime (nanoseconds) differ from the last read; the
// directory listing is likewise reused while the directory's stamp stays. O_NONBLOCK and the
// fstat check keep a FIFO or device put in place of a bootstrap file from blocking: it reads as
// missing.

const fileCache = new Map<string, FileStamp & { content: string; rawChars: number }>();

async function readCapped(file: string): Promise<{ content: string; rawChars: number }> {
  // Synchronous, like the folder's (see dir-listing.ts); a missing file throws, as the open would.
  const stamp = statSync(file, { bigint: true });
  const hit = fileCache.get(file);
  if (hit && sameStamp(hit, stamp)) return hit;
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    // The stamp of what is read: a change while reading shows at the next turn's stat.
    const stats = await handle.stat({ bigint: true });
    if (!stats.isFile()) throw new Error(`${file} is not a regular file`);
    const size = Number(stats.size);
    let read: { content: string; rawChars: number };
    if (size <= MAX_BOOTSTRAP_READ_BYTES) {
      const content = await handle.readFile({ encoding: "utf8" });
      read = { content, rawChars: content.length };
    } else {
      const half = MAX_BOOTSTRAP_READ_BYTES / 2;
      const head = Buffer.alloc(half);
      const tail = Buffer.alloc(half);
      await handle.read(head, 0, half, 0);
      await handle.read(tail, 0, half, size - half);
      // Slices may cut a multi-byte character; the decoder turns those bytes into U+FFFD at the
      // far ends only, which truncation never keeps.
      read = { content: head.toString("utf8") + tail.toString("utf8"), rawChars: size };
    }
    rememberBounded(fileCache, file, { ...stampOf(stats), ...read });
    return read;
  } finally {
    await handle.close();
  }
}

const lowerCased = new WeakMap<ReadonlySet<string>, Set<string>>();

function caseInsensitiveHas(entries: ReadonlySet<string>, name: string): boolean {
  let lower = lowerCased.get(entries);
  if (!lower) {
    lower = new Set([...entries].map((e) => e.toLowerCase()));
    lowerCased.set(entries, lower);
  }
  return lower.has(name.toLowerCase());
}

/**
 * Reads the workspace's bootstrap files, in prompt order. A required file that cannot be read is
 * `missing`; `MEMORY.md` and `BOOTSTRAP.md` are left out when absent. Unchanged files come from
 * memory (see above), so calling this every turn costs a few stats.
 */
export async function loadWorkspaceBootstrapFiles(workspaceDir: string): Promise<WorkspaceBootstrapFile[]> {
  const dir = path.resolve(workspaceDir);
  const entries = await cachedListing(dir);
  const wanted = BOOTSTRAP_FILE_NAMES.filter((name) => entries.has(name) || (name !== MEMORY_FILE_NAME && name !== BOOTSTRAP_FILE_NAME));
  return Promise.all(
    wanted.map(async (name): Promise<WorkspaceBootstrapFile> => {
      const file = path.join(dir, name);
      // Not in the listing (in any letter case: some file systems ignore it): missing, no stat.
      if (!entries.has(name) && !caseInsensitiveHas(entries, name)) return { name, path: file, missing: true, rawChars: 0 };
      try {
        const { content, rawChars } = await readCapped(file);
        return { name, path: file, missing: false, content, rawChars };
      } catch {
        return { name, path: file, missing: true, rawChars: 0 };
      }
    }),
  );
}
