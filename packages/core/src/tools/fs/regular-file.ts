import { constants, promises as fs, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";

/**
 * A path that is not a regular file (a FIFO, socket, device or directory). Opening a FIFO for
 * reading blocks a libuv thread until a writer appears, and a device such as /dev/zero never
 * ends, so file tools refuse them. The message names the path, what it is, and the tool.
 */
export class NotRegularFileError extends Error {
  constructor(
    readonly displayPath: string,
    readonly kind: string,
    tool: string,
    verb = "opens",
  ) {
    super(`"${displayPath}" is ${kind}, not a regular file; ${tool} only ${verb} regular files.`);
    this.name = "NotRegularFileError";
  }
}

/** What a stat result describes, with an article: `a FIFO (named pipe)`, `a character device`, ... */
export function describeFileKind(stats: Stats): string {
  if (stats.isFile()) return "a regular file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "a special file";
}

export interface OpenRegularFileOptions {
  /** The path as the model gave it, for messages. */
  display: string;
  /** Tool name for messages, e.g. `read`. */
  tool: string;
  /** Checked before each step; an aborted signal rejects with an error named `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Refuse a symlink as the last component (for paths already resolved with realpath). Default false. */
  noFollow?: boolean;
}

/** Throws an error named `AbortError` when `signal` has fired (whatever reason it was given). */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw Object.assign(new Error("The operation was aborted.", { cause: signal.reason }), { name: "AbortError" });
}

function assertRegular(stats: Stats, options: OpenRegularFileOptions): void {
  if (!stats.isFile()) throw new NotRegularFileError(options.display, describeFileKind(stats), options.tool);
}

/**
 * Opens `file` for reading only if it is a regular file. The path is stat'ed first (so a device is
 * never opened), then opened with O_NONBLOCK (a FIFO swapped in after the check cannot block the
 * thread pool) and the open handle is fstat'ed again; anything but a regular file is closed and
 * refused with {@link NotRegularFileError}. The caller closes the returned handle.
 */
export async function openRegularFile(file: string, options: OpenRegularFileOptions): Promise<{ handle: FileHandle; stats: Stats }> {
  checkAborted(options.signal);
  assertRegular(await fs.stat(file), options);
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0);
  const handle = await fs.open(file, flags);
  try {
    const stats = await handle.stat();
    assertRegular(stats, options);
    checkAborted(options.signal);
    return { handle, stats };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The whole content of a regular file (see {@link openRegularFile}); honours `signal` while reading. */
export async function readRegularFile(file: string, options: OpenRegularFileOptions): Promise<Buffer> {
  const { handle } = await openRegularFile(file, options);
  try {
    return await handle.readFile(options.signal ? { signal: options.signal } : {});
  } finally {
    await handle.close();
  }
}

/**
 * Refuses to replace something that exists at `file` and is not a regular file (write and edit
 * rename a new file over the target; a FIFO or socket there is someone else's). A missing path passes.
 */
export async function assertReplaceable(file: string, display: string, tool: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await fs.lstat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  if (!stats.isFile()) throw new NotRegularFileError(display, describeFileKind(stats), tool, "replaces");
}
