import { closeSync, fstatSync, openSync, readFileSync, statSync } from "node:fs";
import { ConfigFileError } from "./errors.js";
import { parseJson5Text } from "./json5-text.js";
import { formatMegabytes, MAX_CONFIG_BYTES } from "./limits.js";

/** The config file as found on disk, before includes and `${VAR}` substitution. */
export interface ConfigSource {
  /** False when the file does not exist. */
  exists: boolean;
  /** Parsed JSON5 value; `{}` when the file does not exist. */
  raw: unknown;
  /** The file's text exactly as read; absent when the file does not exist. */
  text?: string;
}

/**
 * Reads and parses a JSON5 config file. A missing file is not an error (`exists: false`,
 * `raw: {}`). Throws `ConfigFileError` for a syntax error (naming line and column), an empty
 * file, a file that cannot be read (a directory, no permission), a path that is not a regular
 * file (a FIFO is refused without opening it), a file over `MAX_CONFIG_BYTES` (10 MB; refused
 * from its size, before reading), or text nested deeper than `MAX_CONFIG_DEPTH` (64) levels.
 * The file system calls are synchronous (a few small-file calls; every command starts here, and
 * Node's thread pool, which asynchronous calls need, costs a command more to start than they take).
 */
export async function readConfigSource(file: string): Promise<ConfigSource> {
  let text: string;
  try {
    const info = statSync(file);
    if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (!info.isFile()) {
      throw new ConfigFileError(file, {
        file,
        message: "is not a regular file (a pipe, socket or device); point OPENCLAW_CONFIG_PATH at a JSON5 file.",
      });
    }
    const fd = openSync(file, "r");
    try {
      // Size again from the open file: it may have been replaced since the stat.
      const { size } = fstatSync(fd);
      if (Math.max(size, info.size) > MAX_CONFIG_BYTES) throw tooLarge(file, Math.max(size, info.size));
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (err instanceof ConfigFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { exists: false, raw: {} };
    throw new ConfigFileError(file, { file, message: describeReadError(err as NodeJS.ErrnoException) });
  }
  const parsed = parseJson5Text(text, file);
  if (!parsed.ok) throw new ConfigFileError(file, parsed.problem);
  return { exists: true, raw: parsed.value, text };
}

function tooLarge(file: string, size: number): ConfigFileError {
  return new ConfigFileError(file, {
    file,
    message:
      `is ${formatMegabytes(size)}; a config file may be at most ${formatMegabytes(MAX_CONFIG_BYTES)}. ` +
      "A real config is a few KB: check that OPENCLAW_CONFIG_PATH names the config file, or restore it from a backup (.bak) if it was damaged.",
  });
}

/** Human wording for a failed read of a config or included file. */
export function describeReadError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "EISDIR":
      return "is a directory, not a file; point OPENCLAW_CONFIG_PATH (or the include) at a JSON5 file.";
    case "EACCES":
    case "EPERM":
      return "cannot be read (permission denied); make it readable by this user (e.g. chmod 600).";
    case "ENOENT":
      return "does not exist.";
    default:
      return `cannot be read (${err.code ?? err.message}).`;
  }
}
