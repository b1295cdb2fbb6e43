// Public surface of the plugins concern: discovery (no plugin code runs), policy, SDK
// compatibility, loading, install and enable/disable. Other folders import from here only.
export type {
  BrokenPlugin,
  DiscoveredPlugin,
  PluginManifest,
  PluginProblem,
  PluginSet,
  PluginSource,
  ResolvedPlugin,
  ShadowedPlugin,
} from "./types.js";
export { MANIFEST_FILE } from "./manifest.js";
export { discoverPlugins, type DiscoverOptions, type Discovery } from "./discovery.js";
export { extensionsDir, type InstallRecord } from "./extensions-store.js";
export { FIRST_PARTY_CHANNELS, firstPartyChannel, installCommandFor, type FirstPartyChannel } from "./first-party.js";
export { readPluginSettings, disabledReason, type PluginSettings } from "./policy.js";
export { resolvePlugins, activePlugins, clearPluginCache, type ResolvePluginsOptions } from "./resolve.js";
export {
  loadChannelConfigDefinitions,
  loadChannelPlugins,
  collectChannelConfigDefinitions,
  formatPluginProblems,
  PluginLoadError,
  probePlugin,
  type PluginsInput,
} from "./load.js";
export { missingChannelPlugins, notInstalledMessage, type MissingChannelPlugin } from "./missing.js";
export { resolvePluginConfig, resolveConfigRegistry, loadConfigWithPlugins, type PluginConfigResult } from "./config-definitions.js";
export { installPlugin, type InstallPluginOptions, type InstallPluginResult } from "./install.js";
export { hostSdkDir, hostZodDir, linkHostPackages, HOST_PROVIDED, type HostLinks } from "./host-links.js";
export { uninstallPlugin, type UninstallPluginOptions, type UninstallPluginResult } from "./uninstall.js";
export { setPluginEnabled, type SetPluginEnabledResult } from "./enable.js";
