import type { Command } from "commander";
import type { MemoryIndexOptions } from "../actions/memory.js";
import type { CliContext } from "../context.js";

/** The implementation (the memory index, SQLite), imported only when the command runs. */
const actions = () => import("../actions/memory.js");

/** `openclaw memory index`: brings an agent's memory search index up to date now. */
export function registerMemory(program: Command, ctx: CliContext): void {
  const memory = program.command("memory").description("the agent's memory files (MEMORY.md, memory/*.md) and their search index");
  memory
    .command("index")
    .description("re-index the agent's memory files now (memory_search also does it before each search), showing progress")
    .option("--agent <id>", "the agent (default: the default agent)")
    .action(async (opts: MemoryIndexOptions) => (await actions()).runMemoryIndex(ctx, opts));
}
