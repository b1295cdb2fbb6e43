import { PLUGIN_SDK_VERSION } from "@openclaw/plugin-sdk";
import { firstPartyChannel, installCommandFor } from "./first-party.js";
import type { PluginSet, ResolvedPlugin } from "./types.js";

/** A configured channel that no loaded plugin provides. */
export interface MissingChannelPlugin {
  /** The key under `channels`. */
  channel: string;
  /** The package to install, when known (a first-party channel's, or the found plugin's). */
  packageName?: string;
  /**
   * `not-installed`; or installed but `disabled` by config, refused as `incompatible`, or
   * `broken` (its manifest is wrong or its files are gone; the error is among the plugin problems).
   */
  reason: "not-installed" | "disabled" | "incompatible" | "broken";
  /** One line naming the config path and the fix. */
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function turnOnHint(plugin: ResolvedPlugin): string {
  const reason = plugin.disabledReason ?? "";
  if (reason.startsWith("plugins.entries.")) return `turn it on with \`openclaw plugins enable ${plugin.id}\``;
  if (reason === "plugins.enabled is false") return "set plugins.enabled to true";
  if (reason === "listed in plugins.deny") return `remove "${plugin.id}" from plugins.deny`;
  return `add "${plugin.id}" to plugins.allow`;
}

/** "channels.<id> is configured but no installed plugin provides it", with the command that installs one. */
export function notInstalledMessage(channel: string, packageName?: string): string {
  return `channels.${channel} is configured but no installed plugin provides it; install it with \`${installCommandFor(channel, packageName)}\``;
}

/**
 * Channels configured under `channels.<id>` (and not `enabled: false`) whose plugin does not
 * load: not installed, turned off by config, refused for its SDK range, or installed but broken.
 * The gateway refuses to start while this is non-empty; `openclaw config validate` prints each
 * as a warning.
 * `config` may be raw or validated.
 */
export function missingChannelPlugins(config: unknown, plugins: PluginSet | readonly ResolvedPlugin[]): MissingChannelPlugin[] {
  const list = Array.isArray(plugins) ? (plugins as readonly ResolvedPlugin[]) : (plugins as PluginSet).plugins;
  const host = Array.isArray(plugins) ? PLUGIN_SDK_VERSION : (plugins as PluginSet).hostSdkVersion;
  const brokenList = Array.isArray(plugins) ? [] : ((plugins as PluginSet).broken ?? []);
  const channels = isObject(config) && isObject(config.channels) ? config.channels : {};
  const out: MissingChannelPlugin[] = [];
  for (const [channel, value] of Object.entries(channels)) {
    if (isObject(value) && value.enabled === false) continue;
    const providers = list.filter((p) => p.manifest.channels.includes(channel));
    if (providers.some((p) => p.active)) continue;
    const installed = providers[0];
    const packageName = installed?.packageName ?? firstPartyChannel(channel)?.packageName;
    const broken = installed ? undefined : brokenList.find((b) => b.id === channel || (packageName && b.packageName === packageName));
    const where = `channels.${channel} is configured`;
    if (installed && !installed.enabled) {
      out.push({
        channel,
        packageName: installed.packageName,
        reason: "disabled",
        message: `${where} but its plugin "${installed.id}" (${installed.packageName}) is turned off (${installed.disabledReason}); ${turnOnHint(installed)}.`,
      });
    } else if (installed) {
      out.push({
        channel,
        packageName: installed.packageName,
        reason: "incompatible",
        message: `${where} but its plugin "${installed.id}" (${installed.packageName} ${installed.version}) was refused: it needs @openclaw/plugin-sdk ${installed.manifest.sdk} and this OpenClaw provides ${host}; update the plugin or OpenClaw (see \`openclaw plugins list\`).`,
      });
    } else if (broken) {
      out.push({
        channel,
        packageName: broken.packageName,
        reason: "broken",
        message: `${where} and its plugin ${broken.id ? `"${broken.id}" (${broken.packageName})` : broken.packageName} is installed but cannot load: ${broken.problem.message}`,
      });
    } else {
      out.push({
        channel,
        ...(packageName ? { packageName } : {}),
        reason: "not-installed",
        message: notInstalledMessage(channel, packageName),
      });
    }
  }
  return out;
}
