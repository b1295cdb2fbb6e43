import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";
import {
  type ConfigRegistryWithPlugins,
  createConfigRegistry,
  FIRST_PARTY_CHANNELS,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  type OpenClawPaths,
  type UninstalledChannel,
} from "../config/index.js";
import { collectChannelConfigDefinitions } from "./load.js";
import { missingChannelPlugins, type MissingChannelPlugin } from "./missing.js";
import { resolvePlugins, type ResolvePluginsOptions } from "./resolve.js";
import type { PluginProblem, PluginSet } from "./types.js";

/** What config validation and doctor need from the installed plugins. */
export interface PluginConfigResult {
  set: PluginSet;
  /** Config definitions of the active plugins. */
  definitions: ChannelConfigDefinition[];
  /**
   * Channels of installed but inactive plugins, accepted as they are so their config is reported
   * as "plugin turned off" (see `missing`) rather than as an unknown channel.
   */
  inactive: UninstalledChannel[];
  /** Broken manifests, incompatible SDK ranges, duplicate channels, failed `configEntry` imports. */
  errors: PluginProblem[];
  /** Unknown ids in `plugins.allow`/`deny`/`entries`, missing `plugins.load.paths` folders. */
  warnings: PluginProblem[];
  /** Channels configured in `config` that no active plugin provides. */
  missing: MissingChannelPlugin[];
}

/**
 * Resolves the plugins `config` selects and imports the light config entry of each active one.
 * With no plugin installed nothing is imported (a handful of package.json reads; discovery is
 * cached per process). Never throws for a plugin problem; see `errors`.
 */
export async function resolvePluginConfig(options: ResolvePluginsOptions): Promise<PluginConfigResult> {
  const set = await resolvePlugins(options);
  const { definitions, problems } = await collectChannelConfigDefinitions(set.plugins);
  const all = [...set.problems, ...problems];
  const covered = new Set([...FIRST_PARTY_CHANNELS.map((d) => d.id), ...definitions.map((d) => d.id)]);
  const inactive: UninstalledChannel[] = [];
  // A plugin whose config module failed to import is installed: its error says so, and its
  // channel's settings must not be reported as an unknown channel as well.
  const failed = new Set(problems.map((p) => p.pluginId));
  for (const plugin of set.plugins.filter((p) => !p.active || failed.has(p.id))) {
    for (const channel of plugin.manifest.channels) {
      if (covered.has(channel)) continue;
      covered.add(channel);
      inactive.push({ id: channel, label: channel, packageName: plugin.packageName });
    }
  }
  return {
    set,
    definitions,
    inactive,
    errors: all.filter((p) => p.level === "error"),
    warnings: all.filter((p) => p.level === "warning"),
    missing: missingChannelPlugins(options.config ?? {}, set),
  };
}

/**
 * Builds the registry for a resolved config (after `$include` and `${VAR}`): core's schema plus
 * the definitions of the installed, enabled, SDK-compatible plugins that the config's `plugins`
 * section selects. Imports no plugin code when no plugin is installed; discovery is cached per
 * process.
 */
export async function resolveConfigRegistry(
  resolved: unknown,
  paths: OpenClawPaths,
  options: { cwd?: string } = {},
): Promise<ConfigRegistryWithPlugins> {
  const result = await resolvePluginConfig({ paths, config: resolved, ...(options.cwd ? { cwd: options.cwd } : {}) });
  return {
    registry: createConfigRegistry(result.definitions, result.inactive),
    problems: result.errors.map((p) => ({ kind: "invalid", path: "plugins", message: p.message })),
    warnings: [...result.warnings.map((p) => p.message), ...result.missing.map((m) => m.message)],
  };
}

/** `loadConfig` with the installed plugins' channel definitions (see `resolveConfigRegistry`). */
export function loadConfigWithPlugins(
  paths: OpenClawPaths,
  options: Omit<LoadConfigOptions, "resolveRegistry" | "channels"> & { cwd?: string } = {},
): Promise<LoadedConfig> {
  const { cwd, ...rest } = options;
  return loadConfig(paths, { ...rest, resolveRegistry: (resolved) => resolveConfigRegistry(resolved, paths, cwd ? { cwd } : {}) });
}
