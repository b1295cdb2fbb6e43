// Public surface of the config concern. Other folders import from here only.
import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";
import type { z } from "zod";
import { readConfigSource, resolveConfigSource } from "./io/index.js";
import type { OpenClawPaths } from "./paths.js";
import { createConfigRegistry, type ConfigRegistry } from "./registry.js";
import { ConfigError, validateConfig, type ConfigProblem } from "./validate.js";
import { securityWarnings } from "./security-warnings.js";
import { streamingWarnings } from "./streaming-warnings.js";

export { resolvePaths, expandUserPath, UserError, type OpenClawPaths } from "./paths.js";
export { createConfigRegistry, type ConfigRegistry, type UninstalledChannel } from "./registry.js";
export { validateConfig, formatProblems, ConfigError, type ConfigProblem, type ValidationResult } from "./validate.js";
export {
  readConfigSource,
  resolveConfigSource,
  writeConfigFile,
  updateConfigFile,
  configBackupPaths,
  configLockPath,
  parseConfigPath,
  formatConfigPath,
  getAtPath,
  setAtPath,
  unsetAtPath,
  ConfigFileError,
  parseJson5Text,
  configText,
  type ConfigSource,
} from "./io/index.js";
export { parseCliValue } from "./io/cli-value.js";
export { deepMerge } from "./io/merge.js";
export { AGENT_ID_PATTERN } from "./schema/common.js";
export { streamingWarnings } from "./streaming-warnings.js";
export { gatewayAuthWarnings, securityWarnings } from "./security-warnings.js";
export { sharedSessionWarnings } from "./session-warnings.js";
export { FIRST_PARTY_CHANNELS, type FirstPartyChannel } from "./first-party-channels.js";
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
  /**
   * Things worth telling the user that do not make the config invalid: unknown plugin ids in
   * `plugins.allow`/`deny`/`entries`, and configured channels whose plugin is not installed.
   */
  warnings: string[];
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** Channel definitions from installed plugins. Ignored when `resolveRegistry` is given. */
  channels?: readonly ChannelConfigDefinition[];
  /**
   * Builds the registry from the resolved config (the plugins layer passes one that discovers the
   * installed plugins; see `loadConfigWithPlugins` in ../plugins). Default: `channels` only.
   */
  resolveRegistry?: (resolved: unknown) => Promise<ConfigRegistryWithPlugins>;
}

/** The registry for one config, and what the installed plugins contributed to the verdict. */
export interface ConfigRegistryWithPlugins {
  registry: ConfigRegistry;
  /** Plugin errors (broken manifest, incompatible SDK range, a config entry that fails to load) as config problems at `plugins`. */
  problems: ConfigProblem[];
  /** Warnings (unknown plugin ids, configured channels without their plugin). */
  warnings: string[];
}

/**
 * Reads the config file, resolves `$include` and `${VAR}`, and validates it against core's schema
 * extended by the channel definitions of `options` (see `resolveRegistry`). A missing file yields the safe
 * defaults. Throws a `ConfigFileError` (unreadable, syntax, include or variable problems) or a
 * `ConfigError` (schema problems, retired keys, and plugins refused at load time), each listing
 * every problem.
 */
export async function loadConfig(paths: OpenClawPaths, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const file = paths.configPath;
  const source = await readConfigSource(file);
  const resolved = source.exists ? await resolveConfigSource(source.raw, { file, ...(options.env ? { env: options.env } : {}) }) : {};
  const { registry, problems, warnings } = options.resolveRegistry
    ? await options.resolveRegistry(resolved)
    : { registry: createConfigRegistry(options.channels ?? []), problems: [], warnings: [] };
  const result = validateConfig(resolved, registry);
  if (!result.ok || problems.length > 0) throw new ConfigError(file, [...problems, ...(result.ok ? [] : result.problems)]);
  return {
    path: file,
    exists: source.exists,
    config: result.config,
    warnings: [...warnings, ...streamingWarnings(resolved, registry), ...securityWarnings(resolved)],
  };
}
