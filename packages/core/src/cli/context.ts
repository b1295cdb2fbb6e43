import type { Command } from "commander";
import { resolvePaths, type OpenClawPaths } from "../config/paths.js";

/** What every command needs from the global options. */
export interface CliContext {
  /** Resolved lazily so that `--profile` (a global option) is honoured whatever its position. */
  paths(): OpenClawPaths;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export function createCliContext(program: Command): CliContext {
  let cached: OpenClawPaths | undefined;
  return {
    paths() {
      if (!cached) {
        const opts = program.opts<{ profile?: string }>();
        cached = resolvePaths(opts.profile !== undefined ? { profile: opts.profile } : {});
      }
      return cached;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
}
