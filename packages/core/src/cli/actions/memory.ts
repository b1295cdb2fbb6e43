// `openclaw memory index`, loaded only when it runs.
import { memoryIndexPath, openMemoryIndex, syncMemoryIndex } from "../../memory/index.js";
import { resolveWorkspaceSettings } from "../../workspace/index.js";
import type { CliContext } from "../context.js";
import { writeLine } from "../output.js";
import { withProgress } from "../progress.js";

export interface MemoryIndexOptions {
  agent?: string;
}

/**
 * Re-indexes the memory files of one agent's workspace (changed and new files re-chunked,
 * vanished ones dropped), with progress on stderr, and prints what changed.
 */
export async function runMemoryIndex(ctx: CliContext, opts: MemoryIndexOptions): Promise<void> {
  const paths = ctx.paths();
  const loaded = await ctx.loadConfig();
  const settings = resolveWorkspaceSettings(loaded.config, opts.agent, paths);
  const file = memoryIndexPath(paths.stateDir, settings.agentId);
  const db = openMemoryIndex(file);
  try {
    const what = `Indexing the memory files of agent "${settings.agentId}"`;
    const report = await withProgress(
      ctx.stderr,
      what,
      (progress) =>
        syncMemoryIndex(db, settings.workspaceDir, { onProgress: (done, total) => progress.update(`${what}: ${done}/${total}`) }),
      { done: (r) => `Indexed ${r.indexed.length + r.unchanged} memory file(s) of agent "${settings.agentId}"` },
    );
    writeLine(
      ctx.stdout,
      `Memory index of agent "${settings.agentId}" (${file}): ${report.indexed.length} file(s) indexed, ${report.removed.length} removed, ${report.unchanged} unchanged.`,
    );
  } finally {
    db.close();
  }
}
