// Where a file tool's path points: the session's workspace, or one of the extra folders a
// sandboxed session may reach by absolute path (its agent's workspace).
import path from "node:path";
import type { ToolContext } from "../tool-contract/index.js";
import { type ResolvedWorkspacePath, type ResolveInWorkspaceOptions, resolveInWorkspace, WorkspacePathError } from "./workspace-path.js";

/**
 * Resolves a path given to a file tool. Inside `ctx.workspaceDir` it is exactly
 * {@link resolveInWorkspace}. An absolute (or `~/`) path outside it is tried against each of
 * `ctx.extraRoots` with the same guard (no `..`, symlinks must stay inside that root); `relative`
 * is then the absolute path, so messages name the file unambiguously. A write (`forWrite`) into a
 * read-only root throws a WorkspacePathError with reason "read-only" naming the config key.
 * Anything else outside throws as resolveInWorkspace does (reason "absolute-outside").
 */
export function resolveToolPath(
  ctx: Pick<ToolContext, "workspaceDir" | "extraRoots">,
  userPath: string,
  options: ResolveInWorkspaceOptions = {},
): ResolvedWorkspacePath {
  try {
    return resolveInWorkspace(ctx.workspaceDir, userPath, options);
  } catch (err) {
    if (!(err instanceof WorkspacePathError) || err.reason !== "absolute-outside") throw err;
    for (const root of ctx.extraRoots ?? []) {
      try {
        resolveInWorkspace(root.dir, userPath); // is it inside this root at all?
      } catch (inner) {
        if (inner instanceof WorkspacePathError && inner.reason === "absolute-outside") continue;
        throw inner;
      }
      if (options.forWrite && !root.writable) {
        const base = path.basename(userPath.trim().replace(/[\\/]+$/, "")) || "notes.md";
        throw new WorkspacePathError(
          userPath,
          "read-only",
          `Path "${userPath}" is in ${root.label} (${root.dir}), which this session may only read (${root.readOnlyReason ?? "read-only"}). Write inside your working directory (${ctx.workspaceDir}) instead, e.g. "${base}".`,
        );
      }
      const resolved = resolveInWorkspace(root.dir, userPath, options);
      return { ...resolved, relative: resolved.path };
    }
    throw err;
  }
}
