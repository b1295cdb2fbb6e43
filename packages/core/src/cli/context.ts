import type { Command } from "commander";
import type { LoadedConfig } from "../config/index.js";
// paths.ts is tiny (no zod, no JSON5); the config module itself is imported only when a command
// actually loads the config, so `openclaw --version` and `--help` never pay for it.
import { resolvePaths, type OpenClawPaths } from "../config/paths.js";

/** What every command needs from the global options. */
export interface CliContext {
  /** Resolved lazily so that `--profile` (a global option) is honoured whatever its position. */
  paths(): OpenClawPaths;
  /** Loads and validates the config; throws a UserError listing every problem. */
  loadConfig(): Promise<LoadedConfig>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export function createCliContext(program: Command): CliContext {
  let cached: OpenClawPaths | undefined;
  const ctx: CliContext = {
    paths() {
      if (!cached) {
        const opts = program.opts<{ profile?: string }>();
        cached = resolvePaths(opts.profile !== undefined ? { profile: opts.profile } : {});
      }
      return cached;
    },
    async loadConfig() {
      const { loadConfigWithPlugins } = await import("../plugins/index.js");
      return loadConfigWithPlugins(ctx.paths());
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
  return ctx;
}
