import { PLUGIN_SDK_VERSION } from "@openclaw/plugin-sdk";
import { FIRST_PARTY_CHANNELS } from "../config/index.js";
import type { PluginSet, ResolvedPlugin } from "./types.js";

/** A configured channel that no loaded plugin provides. */
export interface MissingChannelPlugin {
  /** The key under `channels`. */
  channel: string;
  /** The package to install, when known (from the built-in definition or the found plugin). */
  packageName?: string;
  /** `not-installed`, or installed but `disabled` by config, or refused as `incompatible`. */
  reason: "not-installed" | "disabled" | "incompatible";
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

/**
 * Channels configured under `channels.<id>` (and not `enabled: false`) whose plugin does not
 * load: not installed, turned off by config, or refused for its SDK range. The gateway refuses
 * to start while this is non-empty; `openclaw config validate` prints each as a warning.
 * `config` may be raw or validated.
 */
export function missingChannelPlugins(config: unknown, plugins: PluginSet | readonly ResolvedPlugin[]): MissingChannelPlugin[] {
  const list = Array.isArray(plugins) ? (plugins as readonly ResolvedPlugin[]) : (plugins as PluginSet).plugins;
  const host = Array.isArray(plugins) ? PLUGIN_SDK_VERSION : (plugins as PluginSet).hostSdkVersion;
  const channels = isObject(config) && isObject(config.channels) ? config.channels : {};
  const out: MissingChannelPlugin[] = [];
  for (const [channel, value] of Object.entries(channels)) {
    if (isObject(value) && value.enabled === false) continue;
    const providers = list.filter((p) => p.manifest.channels.includes(channel));
    if (providers.some((p) => p.active)) continue;
    const builtin = FIRST_PARTY_CHANNELS.find((d) => d.id === channel);
    const installed = providers[0];
    const packageName = installed?.packageName ?? builtin?.packageName;
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
    } else {
      out.push({
        channel,
        ...(packageName ? { packageName } : {}),
        reason: "not-installed",
        message: `${where} but no plugin provides it; install it with \`openclaw plugins install ${packageName ?? "<package>"}\``,
      });
    }
  }
  return out;
}
