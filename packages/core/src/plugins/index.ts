// Public surface of the plugins concern: discovery (no plugin code runs), policy, SDK
// compatibility, loading, install and enable/disable. Other folders import from here only.
export type {
  DiscoveredPlugin,
  PluginManifest,
  PluginProblem,
  PluginSet,
  PluginSource,
  ResolvedPlugin,
  ShadowedPlugin,
} from "./types.js";
export { MANIFEST_FILE } from "./manifest.js";
export { discoverPlugins, extensionsDir, type DiscoverOptions, type Discovery } from "./discovery.js";
export { readPluginSettings, disabledReason, type PluginSettings } from "./policy.js";
export { resolvePlugins, activePlugins, clearPluginCache, type ResolvePluginsOptions } from "./resolve.js";
export {
  loadChannelConfigDefinitions,
  loadChannelPlugins,
  collectChannelConfigDefinitions,
  formatPluginProblems,
  PluginLoadError,
  type PluginsInput,
} from "./load.js";
export { missingChannelPlugins, type MissingChannelPlugin } from "./missing.js";
export { resolvePluginConfig, resolveConfigRegistry, loadConfigWithPlugins, type PluginConfigResult } from "./config-definitions.js";
export { installPlugin, linkHostSdk, hostSdkDir, type InstallPluginOptions, type InstallPluginResult } from "./install.js";
export { setPluginEnabled, type SetPluginEnabledResult } from "./enable.js";
