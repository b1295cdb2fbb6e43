import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk";
import { z } from "zod";
import { BUILTIN_CHANNELS } from "../config/index.js";
import { collectChannelConfigDefinitions } from "./load.js";
import { missingChannelPlugins, type MissingChannelPlugin } from "./missing.js";
import { resolvePlugins, type ResolvePluginsOptions } from "./resolve.js";
import type { PluginProblem, PluginSet, ResolvedPlugin } from "./types.js";

/** What config validation and doctor need from the installed plugins. */
export interface PluginConfigResult {
  set: PluginSet;
  /**
   * Config definitions of the active plugins (they replace built-in ones with the same id), plus
   * a permissive stand-in for each channel of an installed plugin that is inactive or whose
   * config module failed to import, so its config is reported as "plugin turned off" (see
   * `missing`) or by the import error (see `errors`), not as an unknown channel.
   */
  definitions: ChannelConfigDefinition[];
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
  const covered = new Set([...BUILTIN_CHANNELS.map((d) => d.id), ...definitions.map((d) => d.id)]);
  // A plugin whose config module failed to import is installed: its error says so, and its
  // channel's settings must not be reported as an unknown channel as well.
  const failed = new Set(problems.map((p) => p.pluginId));
  for (const plugin of set.plugins.filter((p) => !p.active || failed.has(p.id))) {
    for (const channel of plugin.manifest.channels) {
      if (covered.has(channel)) continue;
      covered.add(channel);
      definitions.push(standIn(plugin, channel));
    }
  }
  return {
    set,
    definitions,
    errors: all.filter((p) => p.level === "error"),
    warnings: all.filter((p) => p.level === "warning"),
    missing: missingChannelPlugins(options.config ?? {}, set),
  };
}

const standIns = new Map<string, ChannelConfigDefinition>();

/** Accepts any object at `channels.<channel>`: the real schema is checked once the plugin loads. */
function standIn(plugin: ResolvedPlugin, channel: string): ChannelConfigDefinition {
  const key = `${plugin.rootDir}\u0000${channel}`;
  let def = standIns.get(key);
  if (!def) {
    def = {
      id: channel,
      label: channel,
      packageName: plugin.packageName,
      schema: z.record(z.string(), z.unknown()).describe(`Settings of ${channel}; checked when the plugin "${plugin.id}" loads.`),
      migrations: [],
      streamingDefaults: { previewMode: null, blockReplies: "explicit" },
    };
    standIns.set(key, def);
  }
  return def;
}
