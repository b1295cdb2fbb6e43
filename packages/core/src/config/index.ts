// Public surface of the config concern. Other folders import from here only.
// NOTE: loadConfig is a provisional implementation (JSON5 only) until the schema, includes and
// env substitution land; its signature is stable.
import { readFile } from "node:fs/promises";
import JSON5 from "json5";
import type { OpenClawPaths } from "./paths.js";

export { resolvePaths, expandUserPath, UserError, type OpenClawPaths } from "./paths.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OpenClawConfig = Record<string, any>;

export interface LoadedConfig {
  /** Absolute path of the config file that was (or would be) read. */
  path: string;
  /** False when the file does not exist; `config` then holds the safe defaults. */
  exists: boolean;
  /** The validated config with defaults applied. */
  config: OpenClawConfig;
}

/** Reads, resolves and validates the config; throws a ConfigError listing every problem. */
export async function loadConfig(paths: OpenClawPaths): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(paths.configPath, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      return { path: paths.configPath, exists: false, config: {} };
    }
    throw err;
  }
  return { path: paths.configPath, exists: true, config: JSON5.parse(text) as OpenClawConfig };
}
