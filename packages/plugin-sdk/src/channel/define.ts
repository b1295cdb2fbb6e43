import type { ChannelPlugin } from "./types.js";

/** The SDK version a plugin is built against; plugins declare a range that must include the host's. */
export const PLUGIN_SDK_VERSION = "0.1.0";

/** Identity helper that keeps the plugin's account type. */
export function defineChannelPlugin<Account>(plugin: ChannelPlugin<Account>): ChannelPlugin<Account> {
  return plugin;
}
