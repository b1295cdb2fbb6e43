import path from "node:path";
import { UserError, type OpenClawPaths } from "../config/index.js";
import { extensionsDir, prunePackedTarballs, readExtensionsManifest, writeInstallRecord } from "./extensions-store.js";
import { linkHostPackages } from "./host-links.js";
import { readPluginPackage } from "./manifest.js";
import { NPM_INSTALL_FLAGS, npmFailure, runNpm } from "./npm.js";
import { readPluginSettings } from "./policy.js";
import { clearPluginCache, resolvePlugins } from "./resolve.js";

export interface UninstallPluginOptions {
  paths: OpenClawPaths;
  /** The plugin id (`openclaw plugins list` shows it) or its package name. */
  target: string;
  /** The config as far as it reads (raw or resolved): only used to report what still refers to the plugin. */
  config?: unknown;
  /** Where the project's package.json is searched from (to say where else a plugin comes from); default `process.cwd()`. */
  cwd?: string;
  /** The npm executable; default `npm` from PATH. */
  npm?: string;
  env?: NodeJS.ProcessEnv;
  onOutput?: (text: string) => void;
}

export interface UninstallPluginResult {
  packageName: string;
  /** The plugin id, when it could be read or was recorded at install. */
  id?: string;
  /** Channels the plugin provided (empty when its manifest could not be read). */
  channels: readonly string[];
  extensionsDir: string;
  /**
   * Config paths that still name the plugin or its channels; uninstall leaves the config file
   * alone (settings and tokens survive a reinstall), so the caller can say how to remove them.
   */
  configReferences: string[];
  /** Configured channels (not `enabled: false`) that no other plugin provides: the gateway will not start with them. */
  orphanedChannels: string[];
}

interface Installed {
  packageName: string;
  id?: string;
  channels: readonly string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every package npm installed into the prefix, with its plugin id and channels when readable. */
async function installedPackages(extDir: string): Promise<Installed[]> {
  const manifest = await readExtensionsManifest(extDir);
  return Promise.all(
    Object.keys(manifest.dependencies)
      .sort()
      .map(async (packageName): Promise<Installed> => {
        const result = await readPluginPackage(path.join(extDir, "node_modules", ...packageName.split("/")), "extensions");
        const id =
          result.kind === "plugin"
            ? result.plugin.id
            : (manifest.installs[packageName]?.id ?? (result.kind === "broken" ? result.problem.pluginId : undefined));
        return { packageName, ...(id ? { id } : {}), channels: result.kind === "plugin" ? result.plugin.manifest.channels : [] };
      }),
  );
}

/** A UserError saying where a plugin with this id comes from when it is not in the extensions folder. */
async function notInstalledHere(options: UninstallPluginOptions, extDir: string, installed: Installed[]): Promise<never> {
  const set = await resolvePlugins({
    paths: options.paths,
    config: options.config ?? {},
    ...(options.cwd ? { cwd: options.cwd } : {}),
    cache: false,
  });
  const elsewhere = set.plugins.find((p) => p.id === options.target || p.packageName === options.target);
  if (elsewhere) {
    const how =
      elsewhere.source === "path"
        ? `it is loaded from ${elsewhere.rootDir} through plugins.load.paths; remove that folder from plugins.load.paths in ${options.paths.configPath}`
        : `it is a dependency of your project or of OpenClaw (${elsewhere.rootDir}); remove it from that package.json`;
    throw new UserError(
      `Plugin "${elsewhere.id}" was not installed with \`openclaw plugins install\`, so there is nothing to uninstall in ${extDir}: ${how}, or keep it and turn it off with \`openclaw plugins disable ${elsewhere.id}\`.`,
    );
  }
  const list = installed.map((i) => (i.id && i.id !== i.packageName ? `${i.id} (${i.packageName})` : i.packageName));
  throw new UserError(
    `No plugin installed in ${extDir} has the id or package name "${options.target}"; ${list.length ? `installed: ${list.join(", ")}` : "none is installed"}.`,
  );
}

/** Config paths that name the plugin or its channels, and the configured channels left without a plugin. */
async function configReferences(
  options: UninstallPluginOptions,
  removed: Installed,
): Promise<Pick<UninstallPluginResult, "configReferences" | "orphanedChannels">> {
  const config = options.config ?? {};
  const refs: string[] = [];
  const settings = readPluginSettings(config, options.paths.configPath);
  if (removed.id) {
    if (settings.entryIds.includes(removed.id)) refs.push(`plugins.entries.${removed.id}`);
    if (settings.allow?.includes(removed.id)) refs.push("plugins.allow");
    if (settings.deny.includes(removed.id)) refs.push("plugins.deny");
  }
  const channels = isObject(config) && isObject(config.channels) ? config.channels : {};
  const configured = removed.channels.filter((c) => c in channels);
  refs.push(...configured.map((c) => `channels.${c}`));
  const set = await resolvePlugins({ paths: options.paths, config, ...(options.cwd ? { cwd: options.cwd } : {}), cache: false });
  const orphanedChannels = configured.filter((c) => {
    const value = channels[c];
    if (isObject(value) && value.enabled === false) return false;
    return !set.plugins.some((p) => p.active && p.manifest.channels.includes(c));
  });
  return { configReferences: refs, orphanedChannels };
}

/**
 * Removes a plugin installed with `openclaw plugins install` (found by id or package name) from
 * `<stateDir>/extensions`, with npm, and drops its install record and packed tarball. Plugins
 * whose files vanished can be removed too. The links to the host's @openclaw/plugin-sdk and zod
 * stay (npm drops them as extraneous; they are put back), so the other plugins keep loading. The
 * config file is not changed; the result lists what in it still refers to the plugin. Throws a
 * `UserError` when no installed plugin matches (saying where a plugin with that id comes from
 * instead) or when npm fails. Clears the discovery cache.
 */
export async function uninstallPlugin(options: UninstallPluginOptions): Promise<UninstallPluginResult> {
  const extDir = extensionsDir(options.paths.stateDir);
  const installed = await installedPackages(extDir);
  const matches = installed.filter((i) => i.packageName === options.target || i.id === options.target);
  if (matches.length === 0) return notInstalledHere(options, extDir, installed);
  if (matches.length > 1) {
    throw new UserError(
      `Several installed packages have the plugin id "${options.target}": ${matches.map((m) => m.packageName).join(", ")}; name the one to remove by its package name.`,
    );
  }
  const removed = matches[0]!;
  const run = await runNpm(["uninstall", "--prefix", extDir, ...NPM_INSTALL_FLAGS, removed.packageName], {
    cwd: extDir,
    ...(options.npm ? { npm: options.npm } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.onOutput ? { onOutput: options.onOutput } : {}),
  });
  // Whatever npm did, the other plugins need the host's SDK and zod back.
  await linkHostPackages(extDir);
  if (run.code !== 0) throw npmFailure(`uninstall ${removed.packageName}`, run);
  await writeInstallRecord(extDir, removed.packageName, undefined);
  await prunePackedTarballs(extDir);
  clearPluginCache();
  return {
    packageName: removed.packageName,
    ...(removed.id ? { id: removed.id } : {}),
    channels: removed.channels,
    extensionsDir: extDir,
    ...(await configReferences(options, removed)),
  };
}
