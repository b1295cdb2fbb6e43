import path from "node:path";
import { z } from "zod";
import { defineTool, ToolError } from "../../tool-contract/index.js";
import type { AgentTool, ToolContext } from "../../tool-contract/index.js";
import { checkAborted } from "../fs/regular-file.js";
import { resolveToolPath } from "../tool-path.js";
import { applyPatchWorkspaceOnly, isApplyPatchAllowed } from "./gate.js";
import { PatchApplyError } from "./apply-chunks.js";
import { parsePatch, PatchParseError } from "./parse.js";
import { commitStaged, stagePatch, type PatchTarget } from "./stage.js";

const schema = z.strictObject({
  input: z.string().min(1).describe("The whole patch, from *** Begin Patch to *** End Patch."),
});

const DESCRIPTION = `Apply a patch that adds, updates, moves or deletes workspace files in one all-or-nothing step.
Format:
*** Begin Patch
*** Add File: path/new.txt
+each line of the new file, prefixed by +
*** Update File: path/existing.py
*** Move to: path/renamed.py   (optional)
@@ def some_function():   (optional line to find first)
 unchanged context line
-line to remove
+line to add
*** Delete File: path/old.txt
*** End Patch
Paths are relative to the workspace. Give about 3 lines of context around each change.`;

function resolver(ctx: ToolContext): (p: string) => PatchTarget {
  if (applyPatchWorkspaceOnly(ctx.config)) {
    return (p) => {
      const r = resolveToolPath(ctx, p, { forWrite: true });
      return { path: r.path, display: r.relative };
    };
  }
  return (p) => {
    const abs = path.resolve(ctx.workspaceDir, p);
    const rel = path.relative(ctx.workspaceDir, abs);
    return { path: abs, display: rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel.split(path.sep).join("/") };
  };
}

/**
 * The `apply_patch` tool (OpenAI patch envelope). Every hunk is checked and computed before any
 * file is written; a failure leaves the workspace untouched. With
 * `tools.exec.applyPatch.workspaceOnly` (default true) every path goes through the workspace guard.
 */
export function createApplyPatchTool(): AgentTool {
  return defineTool({
    name: "apply_patch",
    groups: ["group:fs"],
    description: DESCRIPTION,
    schema,
    async run(args, ctx) {
      if (ctx.modelRef !== undefined && !isApplyPatchAllowed(ctx.config, ctx.modelRef)) {
        throw new ToolError(`apply_patch is not enabled for model "${ctx.modelRef}" (tools.exec.applyPatch). Use edit or write instead.`);
      }
      let staged;
      try {
        const hunks = parsePatch(args.input);
        staged = await stagePatch(hunks, resolver(ctx), ctx.signal);
      } catch (err) {
        if (err instanceof PatchParseError)
          throw new ToolError(`apply_patch: the patch is malformed (${err.message}). Nothing was changed.`);
        if (err instanceof PatchApplyError || err instanceof ToolError)
          throw new ToolError(`apply_patch: ${err.message} Nothing was changed.`);
        if (err instanceof Error && (err.name === "WorkspacePathError" || err.name === "NotRegularFileError"))
          throw new ToolError(`apply_patch: ${err.message} Nothing was changed.`);
        throw err;
      }
      checkAborted(ctx.signal);
      await commitStaged(staged.files);
      const lines = staged.changes.map((c) => (c.op === "R" ? `R ${c.from} -> ${c.path}` : `${c.op} ${c.path}`));
      return {
        content: `Patch applied:\n${lines.join("\n")}`,
        details: { changes: staged.changes },
      };
    },
  });
}
