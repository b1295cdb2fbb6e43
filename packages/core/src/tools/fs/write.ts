import { z } from "zod";
import { defineTool } from "../../tool-contract/index.js";
import type { AgentTool } from "../../tool-contract/index.js";
import { resolveToolPath } from "../tool-path.js";
import { writeFileAtomic } from "./atomic-write.js";
import { assertReplaceable, checkAborted } from "./regular-file.js";

const schema = z.strictObject({
  path: z.string().min(1).describe("File path relative to the workspace; missing folders are created."),
  content: z.string().describe("The complete new content of the file."),
});

/** The `write` tool: creates or replaces a workspace file atomically (parents created). */
export function createWriteTool(): AgentTool {
  return defineTool({
    name: "write",
    groups: ["group:fs"],
    description:
      "Create a file in the workspace or replace its whole content. Missing folders are created. " +
      "To change part of an existing file, prefer edit.",
    schema,
    async run(args, ctx) {
      const target = resolveToolPath(ctx, args.path, { forWrite: true });
      if (target.exists) await assertReplaceable(target.path, args.path, "write");
      checkAborted(ctx.signal);
      await writeFileAtomic(target.path, args.content);
      const bytes = Buffer.byteLength(args.content, "utf8");
      const verb = target.exists ? "Replaced" : "Created";
      return {
        content: `${verb} ${target.relative} (${bytes} bytes).`,
        details: { path: target.relative, bytes, created: !target.exists },
      };
    },
  });
}
