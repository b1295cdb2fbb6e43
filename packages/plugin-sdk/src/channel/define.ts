import { createRequire } from "node:module";
import type { z } from "zod";
import type { ChannelPlugin } from "./types.js";

/**
 * The version of this SDK package, read from its package.json (so it can never disagree with
 * the release). Plugins declare the SDK range they were built for in their manifest; the host
 * refuses one whose range does not include this version.
 */
export const PLUGIN_SDK_VERSION: string = (createRequire(import.meta.url)("../../package.json") as { version: string }).version;

/** Identity helper that keeps the plugin's account and schema types. */
export function defineChannelPlugin<Account, S extends z.ZodType>(plugin: ChannelPlugin<Account, S>): ChannelPlugin<Account, S> {
  return plugin;
}
