import { z } from "zod";
import { defineTool, ToolError } from "../../tool-contract/index.js";
import type { AgentTool } from "../../tool-contract/index.js";
import { resolveToolPath } from "../tool-path.js";
import { writeFileAtomic } from "./atomic-write.js";
import { checkAborted, readRegularFile } from "./regular-file.js";
import { looksBinary } from "./text-file.js";

const schema = z.strictObject({
  path: z.string().min(1).describe("File path relative to the workspace."),
  old_string: z.string().min(1).describe("Exact text to replace, including whitespace and indentation."),
  new_string: z.string().describe("Replacement text."),
  replace_all: z.boolean().optional().describe("Replace every occurrence instead of requiring exactly one (default false)."),
});

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** Suggests why an exact match failed: the same text with different whitespace. */
function nearMissHint(text: string, needle: string): string {
  const squash = (s: string) => s.replace(/\s+/g, " ").trim();
  const lines = text.split("\n");
  const first = squash(needle.split("\n").find((l) => l.trim() !== "") ?? "");
  if (first === "") return "";
  const at = lines.findIndex((l) => squash(l) === first || (first.length > 8 && squash(l).includes(first)));
  return at === -1 ? "" : ` A similar line with different whitespace is at line ${at + 1}; read the file and copy the text exactly.`;
}

/** The `edit` tool: exact string replacement in one workspace file. */
export function createEditTool(): AgentTool {
  return defineTool({
    name: "edit",
    groups: ["group:fs"],
    description:
      "Replace exact text in a workspace file. old_string must match exactly once (whitespace included) " +
      "unless replace_all is true. Read the file first to copy the text precisely.",
    schema,
    async run(args, ctx) {
      const target = resolveToolPath(ctx, args.path, { mustExist: true, forWrite: true });
      const raw = await readRegularFile(target.path, { display: args.path, tool: "edit", signal: ctx.signal, noFollow: true });
      if (looksBinary(raw.subarray(0, 8192))) throw new ToolError(`"${args.path}" looks like a binary file; edit only handles text.`);
      const text = raw.toString("utf8");
      if (args.old_string === args.new_string) throw new ToolError("old_string and new_string are identical; nothing to change.");

      let oldString = args.old_string;
      let newString = args.new_string;
      let count = countOccurrences(text, oldString);
      // Files with CRLF endings: the model usually sends LF.
      if (count === 0 && text.includes("\r\n") && !oldString.includes("\r\n") && oldString.includes("\n")) {
        oldString = oldString.replace(/\n/g, "\r\n");
        newString = newString.replace(/\r?\n/g, "\r\n");
        count = countOccurrences(text, oldString);
      }
      if (count === 0) {
        throw new ToolError(`old_string was not found in "${target.relative}".${nearMissHint(text, args.old_string)}`, {
          path: target.relative,
        });
      }
      if (count > 1 && !args.replace_all) {
        throw new ToolError(
          `old_string occurs ${count} times in "${target.relative}"; include more surrounding lines so it matches exactly once, or set replace_all: true.`,
          { path: target.relative, occurrences: count },
        );
      }
      const updated = args.replace_all ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
      checkAborted(ctx.signal);
      await writeFileAtomic(target.path, updated);
      return {
        content: `Edited ${target.relative}: replaced ${count} occurrence${count === 1 ? "" : "s"}.`,
        details: { path: target.relative, replacements: count },
      };
    },
  });
}
