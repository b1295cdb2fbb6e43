import type { ChannelPlugin } from "@openclaw/plugin-sdk";
import { UserError } from "../config/index.js";
import { loadChannelPlugins, notInstalledMessage, missingChannelPlugins, resolvePlugins } from "../plugins/index.js";
import type { PluginDiscovery } from "./types.js";

/**
 * Default plugin discovery: the plugin loader (project dependencies, `<stateDir>/extensions`,
 * `plugins.load.paths`; `plugins.allow`/`deny`/`entries`). Refuses to start, with a UserError
 * listing each fix, when a plugin is broken or incompatible with this SDK, or when a configured
 * channel has no active plugin. Loader warnings are logged.
 */
export const discoverChannelPlugins: PluginDiscovery = async ({ paths, rawConfig, log }) => {
  const set = await resolvePlugins({ paths, config: rawConfig });
  for (const problem of set.problems) if (problem.level === "warning") log.warn(`plugins: ${problem.message}`);
  const missing = missingChannelPlugins(rawConfig, set);
  if (missing.length > 0) {
    throw new UserError(
      [
        `The gateway cannot start: ${paths.configPath} configures channel${missing.length === 1 ? "" : "s"} without a working plugin:`,
        ...missing.map((m) => `  - ${m.message}`),
      ].join("\n"),
    );
  }
  const plugins = await loadChannelPlugins(set);
  for (const plugin of plugins) log.info(`plugins: loaded channel ${plugin.id}`);
  return plugins;
};

/** Channel ids configured under `channels` and not switched off with `enabled: false`. */
export function configuredChannelIds(config: Record<string, unknown>): string[] {
  const channels = config.channels;
  if (!channels || typeof channels !== "object" || Array.isArray(channels)) return [];
  return Object.entries(channels)
    .filter(
      ([, value]) => value !== undefined && !(value && typeof value === "object" && (value as { enabled?: unknown }).enabled === false),
    )
    .map(([id]) => id);
}

/**
 * Refuses to start when a configured channel has no plugin among `plugins` (the check for
 * injected plugins; discovery makes its own, richer one): a UserError naming each such channel
 * and the package to install.
 */
export function assertChannelPluginsPresent(
  config: Record<string, unknown>,
  plugins: readonly ChannelPlugin<unknown>[],
  configPath: string,
): void {
  const loaded = new Set(plugins.map((p) => p.id));
  const missing = configuredChannelIds(config).filter((id) => !loaded.has(id));
  if (missing.length === 0) return;
  const lines = missing.map((id) => `  - ${notInstalledMessage(id)}`);
  throw new UserError(
    [
      `The gateway cannot start: ${configPath} configures channel${missing.length === 1 ? "" : "s"} without a working plugin:`,
      ...lines,
    ].join("\n"),
  );
}
