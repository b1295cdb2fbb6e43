// Public surface of the config concern. Other folders import from here only.
import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk";
import type { z } from "zod";
import { readConfigSource, resolveConfigSource } from "./io/index.js";
import type { OpenClawPaths } from "./paths.js";
import { createConfigRegistry, type ConfigRegistry } from "./registry.js";
import { ConfigError, validateConfig, type ConfigProblem } from "./validate.js";
import { notYetActiveWarnings } from "./not-yet-active.js";

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
export { notYetActiveWarnings } from "./not-yet-active.js";
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
  /**
   * Things worth telling the user that do not make the config invalid: unknown plugin ids in
   * `plugins.allow`/`deny`/`entries`, and configured channels whose plugin is not installed.
   */
  warnings: string[];
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * Channel definitions from installed plugins (they replace built-in ones with the same id).
   * When omitted, the plugins selected by the config's `plugins` section are discovered and
   * their light config entries imported (nothing is imported when none is installed).
   */
  channels?: readonly ChannelConfigDefinition[];
  /** Where the project's package.json (whose dependencies may be plugins) is searched from; default `process.cwd()`. */
  cwd?: string;
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
 * Builds the registry for a resolved config (after `$include` and `${VAR}`): the built-in channel
 * definitions plus those of the installed, enabled, SDK-compatible plugins that the config's
 * `plugins` section selects. Imports no plugin code when no plugin is installed; discovery is
 * cached per process.
 */
export async function resolveConfigRegistry(
  resolved: unknown,
  paths: OpenClawPaths,
  options: { cwd?: string } = {},
): Promise<ConfigRegistryWithPlugins> {
  // Loaded on demand: plugins/ imports this module, and commands that pass `channels` never need it.
  const { resolvePluginConfig } = await import("../plugins/index.js");
  const result = await resolvePluginConfig({ paths, config: resolved, ...(options.cwd ? { cwd: options.cwd } : {}) });
  return {
    registry: createConfigRegistry(result.definitions),
    problems: result.errors.map((p) => ({ kind: "invalid", path: "plugins", message: p.message })),
    warnings: [...result.warnings.map((p) => p.message), ...result.missing.map((m) => m.message)],
  };
}

/**
 * Reads the config file, resolves `$include` and `${VAR}`, and validates it against the built-in
 * schema extended by the installed plugins' channel definitions. A missing file yields the safe
 * defaults. Throws a `ConfigFileError` (unreadable, syntax, include or variable problems) or a
 * `ConfigError` (schema problems, retired keys, and plugins refused at load time), each listing
 * every problem.
 */
export async function loadConfig(paths: OpenClawPaths, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const file = paths.configPath;
  const source = await readConfigSource(file);
  const resolved = source.exists ? await resolveConfigSource(source.raw, { file, ...(options.env ? { env: options.env } : {}) }) : {};
  const { registry, problems, warnings } = options.channels
    ? { registry: createConfigRegistry(options.channels), problems: [], warnings: [] }
    : await resolveConfigRegistry(resolved, paths, options.cwd ? { cwd: options.cwd } : {});
  const result = validateConfig(resolved, registry);
  if (!result.ok || problems.length > 0) throw new ConfigError(file, [...problems, ...(result.ok ? [] : result.problems)]);
  return { path: file, exists: source.exists, config: result.config, warnings: [...warnings, ...notYetActiveWarnings(result.config)] };
}
