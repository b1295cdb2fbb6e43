import type { InstallRecord } from "./extensions-store.js";

/** Where a plugin was found. Precedence when two share an id: `path` > `extensions` > `dependency`. */
export type PluginSource = "path" | "extensions" | "dependency";

/** The `openclaw.plugin` block of a plugin's package.json, with paths made absolute. */
export interface PluginManifest {
  /** Plugin id: the key in `plugins.entries`, `plugins.allow` and `plugins.deny`. */
  id: string;
  kind: "channel";
  /** Channel ids this plugin provides (keys under `channels`). */
  channels: readonly string[];
  /** Absolute path of the module whose default export is the `ChannelPlugin`. */
  entry: string;
  /** Absolute path of the light module whose default export is the `ChannelConfigDefinition`. */
  configEntry?: string;
  /** Semver range of `@openclaw/plugin-sdk` the plugin was built for. */
  sdk: string;
  /** JSON Schema of `channels.<id>` from `openclaw.plugin.json` (documentation and editors). */
  configSchema: Record<string, unknown>;
}

/** A package that declared itself an OpenClaw plugin with a valid manifest. */
export interface DiscoveredPlugin {
  id: string;
  packageName: string;
  version: string;
  source: PluginSource;
  /** Real path of the package folder. */
  rootDir: string;
  /** The package.json the manifest came from. */
  packageJsonPath: string;
  manifest: PluginManifest;
  /** For a plugin in `<stateDir>/extensions`: what it was installed from, when recorded. */
  installedFrom?: InstallRecord;
}

/**
 * A package that was installed or declares itself a plugin but cannot load: its manifest is
 * broken, a file it names is gone, or its folder vanished. Listed by `openclaw plugins list`;
 * the same error is in `problems`.
 */
export interface BrokenPlugin {
  /** The plugin id, when it can still be read (or was recorded at install). */
  id?: string;
  packageName: string;
  version?: string;
  source: PluginSource;
  /** The package folder (it may no longer exist). */
  rootDir: string;
  /** The error, naming the file and the fix. */
  problem: PluginProblem;
}

/** A discovered plugin that lost to another with the same id. */
export interface ShadowedPlugin {
  packageName: string;
  version: string;
  source: PluginSource;
  rootDir: string;
}

/** Something wrong (or worth a warning) with the installed plugins; `file` names where. */
export interface PluginProblem {
  level: "error" | "warning";
  message: string;
  file?: string;
  pluginId?: string;
}

/** A discovered plugin with the decisions made about it. */
export interface ResolvedPlugin extends DiscoveredPlugin {
  /** False when config turns it off; `disabledReason` says which setting. */
  enabled: boolean;
  disabledReason?: string;
  /** True when `manifest.sdk` includes the host's `PLUGIN_SDK_VERSION`. */
  compatible: boolean;
  /** Enabled and compatible: the plugin is loaded. */
  active: boolean;
  /** Same-id plugins found in lower-precedence places; they never load. */
  shadowed: ShadowedPlugin[];
}

/** Every plugin found, what was decided about each, and the problems found on the way. */
export interface PluginSet {
  /** One per id (the winner), sorted by id. */
  plugins: ResolvedPlugin[];
  /** Errors (broken manifest, incompatible SDK, two plugins for one channel) and warnings. */
  problems: PluginProblem[];
  /** Packages that cannot load at all (their errors are in `problems` too), sorted by id or name. */
  broken: BrokenPlugin[];
  /** The `@openclaw/plugin-sdk` version this host provides. */
  hostSdkVersion: string;
}
