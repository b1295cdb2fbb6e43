import { PLUGIN_SDK_VERSION } from "@openclaw/plugin-sdk";
import type { OpenClawPaths } from "../config/index.js";
import { reinstallCommand } from "./extensions-store.js";
import { firstPartyByPackage } from "./first-party.js";
import { discoverPlugins, type DiscoveredWithShadows, type Discovery } from "./discovery.js";
import { disabledReason, readPluginSettings, unknownIdWarnings } from "./policy.js";
import { checkSdkRange, type SdkCompatibility } from "./semver.js";
import type { PluginProblem, PluginSet, ResolvedPlugin } from "./types.js";

export interface ResolvePluginsOptions {
  /** `stateDir` locates `<stateDir>/extensions`; `configPath` anchors relative `plugins.load.paths`. */
  paths: OpenClawPaths;
  /** A raw, resolved or validated config; only `plugins.*` is read. Default `{}`. */
  config?: unknown;
  /** Where the project's package.json is searched from; default `process.cwd()`. */
  cwd?: string;
  /** Host package.json whose dependencies are searched too; default @openclaw/core's own. */
  hostPackageJson?: string;
  /** Default `PLUGIN_SDK_VERSION` from @openclaw/plugin-sdk. */
  hostSdkVersion?: string;
  /** Reuse this process's earlier discovery for the same folders; default true. */
  cache?: boolean;
}

const discoveryCache = new Map<string, Promise<Discovery>>();

/** Forgets cached discoveries (after `plugins install`, or in tests). */
export function clearPluginCache(): void {
  discoveryCache.clear();
}

function updateHint(plugin: ResolvedPlugin | DiscoveredWithShadows): string {
  switch (plugin.source) {
    case "extensions": {
      const record = plugin.installedFrom;
      const byName = (!record || record.kind === "registry") && !firstPartyByPackage(plugin.packageName);
      return byName
        ? `\`openclaw plugins install ${plugin.packageName}@latest\``
        : `\`${reinstallCommand(plugin.packageName, record)}\` from an updated release`;
    }
    case "dependency":
      return `update ${plugin.packageName} in your project's package.json`;
    case "path":
      return `rebuild ${plugin.rootDir} against the current @openclaw/plugin-sdk`;
  }
}

/** The refusal for a plugin whose SDK range excludes the host's version; names both versions. */
export function incompatibleMessage(plugin: DiscoveredWithShadows, host: string, compat: SdkCompatibility): string {
  const head =
    `plugin "${plugin.id}" (${plugin.packageName} ${plugin.version}) was built for @openclaw/plugin-sdk ${plugin.manifest.sdk}, ` +
    `but this OpenClaw provides @openclaw/plugin-sdk ${host}, so it is not loaded.`;
  const updatePlugin = `update the plugin to a release built for @openclaw/plugin-sdk ${host} (${updateHint(plugin)})`;
  const updateCore = `update OpenClaw (@openclaw/core) to a release whose @openclaw/plugin-sdk satisfies ${plugin.manifest.sdk}`;
  const fix =
    compat.mismatch === "plugin-too-old"
      ? updatePlugin
      : compat.mismatch === "host-too-old"
        ? `${updateCore}, or install an older release of ${plugin.packageName} built for ${host}`
        : `${updatePlugin}, or ${updateCore}`;
  return `${head} Fix: ${fix}; or turn it off with \`openclaw plugins disable ${plugin.id}\`.`;
}

/**
 * Discovers the installed plugins and decides, for each id, whether it loads: config policy
 * (`plugins.enabled`, `allow`, `deny` (wins), `entries.<id>.enabled`) and SDK compatibility.
 * Never imports plugin code and never throws for a plugin problem: broken manifests, enabled
 * plugins with an incompatible SDK range and two active plugins claiming one channel are
 * errors in `problems`; unknown ids in the settings are warnings.
 */
export async function resolvePlugins(options: ResolvePluginsOptions): Promise<PluginSet> {
  const settings = readPluginSettings(options.config ?? {}, options.paths.configPath);
  const cwd = options.cwd ?? process.cwd();
  const discoverOptions = {
    stateDir: options.paths.stateDir,
    loadPaths: settings.loadPaths,
    cwd,
    ...(options.hostPackageJson ? { hostPackageJson: options.hostPackageJson } : {}),
  };
  const key = JSON.stringify(discoverOptions);
  let discovery = options.cache === false ? undefined : discoveryCache.get(key);
  if (!discovery) {
    discovery = discoverPlugins(discoverOptions);
    if (options.cache !== false) discoveryCache.set(key, discovery);
  }
  const found = await discovery;
  const host = options.hostSdkVersion ?? PLUGIN_SDK_VERSION;
  const problems: PluginProblem[] = [...found.problems];

  const plugins: ResolvedPlugin[] = [];
  for (const d of found.plugins) {
    const reason = disabledReason(d.id, settings);
    const compat = await checkSdkRange(d.manifest.sdk, host);
    const plugin: ResolvedPlugin = {
      ...d,
      shadowed: [...d.shadowed],
      enabled: reason === undefined,
      ...(reason ? { disabledReason: reason } : {}),
      compatible: compat.compatible,
      active: reason === undefined && compat.compatible,
    };
    if (plugin.enabled && !compat.compatible) {
      problems.push({ level: "error", pluginId: d.id, file: d.packageJsonPath, message: incompatibleMessage(d, host, compat) });
    }
    plugins.push(plugin);
  }

  const owners = new Map<string, ResolvedPlugin>();
  for (const p of plugins.filter((x) => x.active)) {
    for (const channel of p.manifest.channels) {
      const other = owners.get(channel);
      if (other) {
        problems.push({
          level: "error",
          pluginId: p.id,
          file: p.packageJsonPath,
          message: `channel "${channel}" is provided by two plugins, "${other.id}" (${other.packageName}) and "${p.id}" (${p.packageName}); turn one off with \`openclaw plugins disable <id>\`.`,
        });
      } else {
        owners.set(channel, p);
      }
    }
  }
  problems.push(...unknownIdWarnings(settings, new Set(found.plugins.map((p) => p.id))));
  return { plugins, problems, broken: found.broken, hostSdkVersion: host };
}

/** The plugins that load: enabled and compatible. */
export function activePlugins(set: PluginSet): ResolvedPlugin[] {
  return set.plugins.filter((p) => p.active);
}
