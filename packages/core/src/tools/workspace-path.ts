import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** Why a path was refused. */
export type WorkspacePathReason =
  | "empty"
  | "absolute-outside"
  | "dotdot-escape"
  | "symlink-escape"
  | "dangling-symlink"
  | "not-found"
  | "is-directory"
  /** Inside a folder the session may only read (a sandboxed session's view of the agent workspace). */
  | "read-only";

/** A path a file tool may not use; the message names the path, the reason and a fix. */
export class WorkspacePathError extends Error {
  constructor(
    readonly userPath: string,
    readonly reason: WorkspacePathReason,
    message: string,
  ) {
    super(message);
    this.name = "WorkspacePathError";
  }
}

export interface ResolveInWorkspaceOptions {
  /** Refuse a path that does not exist (default false). */
  mustExist?: boolean;
  /** The caller will write the file: refuse an existing directory (default false). */
  forWrite?: boolean;
}

export interface ResolvedWorkspacePath {
  /** Absolute real path to use for I/O: symlinks resolved (for a new file, those of its deepest existing ancestor). */
  path: string;
  /** The same path relative to the workspace, with `/` separators (`.` for the workspace itself). */
  relative: string;
  /** Whether something exists at the path. */
  exists: boolean;
  /** Whether that something is a directory. */
  isDirectory: boolean;
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}

function toPosix(rel: string): string {
  return rel === "" ? "." : rel.split(path.sep).join("/");
}

function hint(userPath: string): string {
  const base = path.basename(userPath.replace(/[\\/]+$/, "")) || "notes.md";
  return `Use a path relative to the workspace, e.g. "${base}".`;
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves a path given by the model inside the agent's workspace, or throws WorkspacePathError.
 * - Relative paths resolve against the workspace; `~/...` expands to the home directory.
 * - Absolute paths are accepted only when they lie inside the workspace.
 * - `..` that leads out of the workspace is refused, even when the target would exist.
 * - Symlinks on any component are followed: the existing part of the path (the path itself, or
 *   for a file not yet created its deepest existing ancestor) must have its real path inside the
 *   workspace. A symlink whose target is missing is refused (writing through it could create a
 *   file anywhere).
 */
export function resolveInWorkspace(workspaceDir: string, userPath: string, options: ResolveInWorkspaceOptions = {}): ResolvedWorkspacePath {
  const root = path.resolve(workspaceDir);
  const realRoot = realpathSync(root);
  const raw = userPath.trim();
  if (raw === "" || raw.includes("\0")) {
    throw new WorkspacePathError(
      userPath,
      "empty",
      `Path ${JSON.stringify(userPath)} is empty or contains a NUL byte. Give a path relative to the workspace, e.g. "notes/todo.md".`,
    );
  }
  const expanded = raw === "~" ? homedir() : raw.startsWith("~/") ? path.join(homedir(), raw.slice(2)) : raw;

  let lexical: string;
  if (path.isAbsolute(expanded)) {
    lexical = path.normalize(expanded);
    const base = isInside(root, lexical) ? root : isInside(realRoot, lexical) ? realRoot : undefined;
    if (!base) {
      throw new WorkspacePathError(
        userPath,
        "absolute-outside",
        `Path "${userPath}" is outside the workspace (${realRoot}); file tools only work inside it. ${hint(userPath)}`,
      );
    }
    lexical = path.join(realRoot, path.relative(base, lexical));
  } else {
    lexical = path.resolve(realRoot, expanded);
    if (!isInside(realRoot, lexical)) {
      throw new WorkspacePathError(
        userPath,
        "dotdot-escape",
        `Path "${userPath}" uses ".." to point outside the workspace (${realRoot}); file tools only work inside it. ${hint(userPath)}`,
      );
    }
  }

  // Find the deepest component that exists; everything below it is yet to be created.
  let existing = lexical;
  const missing: string[] = [];
  while (!exists(existing)) {
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }

  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    const target = safeReadlink(existing);
    throw new WorkspacePathError(
      userPath,
      "dangling-symlink",
      `Path "${userPath}" goes through the symlink "${toPosix(path.relative(realRoot, existing))}"${target ? ` -> "${target}"` : ""} whose target does not exist; refusing to follow it. ${hint(userPath)}`,
    );
  }
  if (!isInside(realRoot, real)) {
    throw new WorkspacePathError(
      userPath,
      "symlink-escape",
      `Path "${userPath}" resolves through a symlink to "${real}", which is outside the workspace (${realRoot}); file tools only work inside it. ${hint(userPath)}`,
    );
  }

  const resolved = path.join(real, ...missing);
  const found = missing.length === 0;
  const isDirectory = found && statSync(resolved).isDirectory();
  if (options.mustExist && !found) {
    throw new WorkspacePathError(
      userPath,
      "not-found",
      `File "${userPath}" does not exist in the workspace (${realRoot}). Check the name, or list files with exec (e.g. "ls").`,
    );
  }
  if (options.forWrite && isDirectory) {
    throw new WorkspacePathError(
      userPath,
      "is-directory",
      `Path "${userPath}" is a directory; give a file path inside it, e.g. "${toPosix(path.join(toPosix(path.relative(realRoot, resolved)), "file.md"))}".`,
    );
  }
  return { path: resolved, relative: toPosix(path.relative(realRoot, resolved)), exists: found, isDirectory };
}

function safeReadlink(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}
