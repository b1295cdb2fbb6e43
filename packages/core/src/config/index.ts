// Public surface of the config concern. Other folders import from here only.
import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk";
import type { z } from "zod";
import { readConfigSource, resolveConfigSource } from "./io/index.js";
import type { OpenClawPaths } from "./paths.js";
import { createConfigRegistry, type ConfigRegistry } from "./registry.js";
import { ConfigError, validateConfig } from "./validate.js";

export { resolvePaths, expandUserPath, UserError, type OpenClawPaths } from "./paths.js";
export { createConfigRegistry, type ConfigRegistry } from "./registry.js";
export { validateConfig, formatProblems, ConfigError, type ConfigProblem, type ValidationResult } from "./validate.js";
export {
  readConfigSource,
  resolveConfigSource,
  writeConfigFile,
  parseConfigPath,
  formatConfigPath,
  getAtPath,
  setAtPath,
  unsetAtPath,
  ConfigFileError,
  type ConfigSource,
} from "./io/index.js";
export { parseCliValue } from "./io/cli-value.js";
export { AGENT_ID_PATTERN } from "./schema/common.js";
export { BUILTIN_CHANNELS } from "./channels/index.js";
// From json-schema.js directly: reference/index.js would also load the markdown renderer.
export { configJsonSchema } from "./reference/json-schema.js";

/** The validated config with every default applied. */
export type OpenClawConfig = z.output<ConfigRegistry["schema"]>;

export interface LoadedConfig {
  /** Absolute path of the config file that was (or would be) read. */
  path: string;
  /** False when the file does not exist; `config` then holds the safe defaults. */
  exists: boolean;
  /** The validated config with defaults applied. */
  config: OpenClawConfig;
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Channel definitions from installed plugins (replace built-in ones with the same id). */
  channels?: readonly ChannelConfigDefinition[];
}

/**
 * Reads the config file, resolves `$include` and `${VAR}`, and validates it. A missing file
 * yields the safe defaults. Throws a `ConfigFileError` (unreadable, syntax, include or variable
 * problems) or a `ConfigError` (schema problems and retired keys), each listing every problem.
 */
export async function loadConfig(paths: OpenClawPaths, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const registry = createConfigRegistry(options.channels);
  const file = paths.configPath;
  const source = await readConfigSource(file);
  const resolved = source.exists ? await resolveConfigSource(source.raw, { file, ...(options.env ? { env: options.env } : {}) }) : {};
  const result = validateConfig(resolved, registry);
  if (!result.ok) throw new ConfigError(file, result.problems);
  return { path: file, exists: source.exists, config: result.config };
}
