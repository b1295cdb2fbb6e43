import { readFile } from "node:fs/promises";
import { ConfigFileError } from "./errors.js";
import { parseJson5Text } from "./json5-text.js";

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
 * file, or a file that cannot be read (a directory, no permission).
 */
export async function readConfigSource(file: string): Promise<ConfigSource> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { exists: false, raw: {} };
    throw new ConfigFileError(file, { file, message: describeReadError(err as NodeJS.ErrnoException) });
  }
  const parsed = parseJson5Text(text, file);
  if (!parsed.ok) throw new ConfigFileError(file, parsed.problem);
  return { exists: true, raw: parsed.value, text };
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
