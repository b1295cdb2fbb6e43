import { z } from "zod";
import { getMemoryFile, MemoryPathError, searchMemory } from "../memory/index.js";
import { defineTool, ToolError } from "../tool-contract/index.js";
import type { AgentTool } from "../tool-contract/index.js";

const searchSchema = z.strictObject({
  query: z.string().min(1).describe("What to look for: words, names, topics."),
  maxResults: z.int().min(1).max(50).optional().describe("Number of results (default 6)."),
});

const getSchema = z.strictObject({
  path: z.string().min(1).describe('MEMORY.md or a file under memory/, e.g. "memory/2025-01-31.md".'),
  from: z.int().min(1).optional().describe("First line, 1-based (default 1)."),
  lines: z.int().min(1).optional().describe("Number of lines (default: to the end of the file)."),
});

/** The `memory_search` tool: ranked snippets (path and line range) from MEMORY.md and memory/*.md. */
export function createMemorySearchTool(): AgentTool {
  return defineTool({
    name: "memory_search",
    groups: ["group:memory"],
    description:
      "Search long-term memory (MEMORY.md and memory/*.md) before answering questions about earlier work, decisions, people, preferences or dates. " +
      "Returns ranked snippets with file path and line range; read more with memory_get.",
    schema: searchSchema,
    async run(args, ctx) {
      const hits = await searchMemory({
        workspaceDir: ctx.workspaceDir,
        stateDir: ctx.stateDir,
        agentId: ctx.agentId,
        query: args.query,
        ...(args.maxResults !== undefined ? { maxResults: args.maxResults } : {}),
      });
      if (hits.length === 0) return { content: `No memory matches "${args.query}".`, details: { hits: [] } };
      const blocks = hits.map((h, i) => `${i + 1}. ${h.path}:${h.startLine}-${h.endLine} (score ${h.score.toFixed(3)})\n${h.snippet}`);
      return { content: blocks.join("\n\n"), details: { hits } };
    },
  });
}

/** The `memory_get` tool: a memory file or a line range of it; other paths are refused. */
export function createMemoryGetTool(): AgentTool {
  return defineTool({
    name: "memory_get",
    groups: ["group:memory"],
    description: "Read MEMORY.md or a memory/*.md file, optionally only some lines (use the line ranges from memory_search).",
    schema: getSchema,
    async run(args, ctx) {
      try {
        const res = await getMemoryFile({
          workspaceDir: ctx.workspaceDir,
          path: args.path,
          signal: ctx.signal,
          ...(args.from !== undefined ? { from: args.from } : {}),
          ...(args.lines !== undefined ? { lines: args.lines } : {}),
        });
        const range =
          res.text === ""
            ? `(no lines from ${res.startLine}; the file has ${res.totalLines})`
            : `lines ${res.startLine}-${res.endLine} of ${res.totalLines}`;
        return { content: `${res.path} ${range}\n\n${res.text}`, details: { ...res, text: undefined } };
      } catch (err) {
        if (err instanceof MemoryPathError) throw new ToolError(err.message);
        throw err;
      }
    },
  });
}
