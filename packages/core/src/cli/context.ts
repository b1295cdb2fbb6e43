import type { Command } from "commander";
import { loadConfig, resolvePaths, type LoadedConfig, type OpenClawPaths } from "../config/index.js";

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
    loadConfig() {
      return loadConfig(ctx.paths());
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
  return ctx;
}
