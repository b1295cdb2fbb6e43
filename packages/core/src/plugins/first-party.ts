import path from "node:path";
import { fileURLToPath } from "node:url";
import { FIRST_PARTY_CHANNELS, type FirstPartyChannel } from "../config/index.js";

// The first-party channels come from the one table core keeps (config/first-party-channels.ts,
// generated from this repository's channel packages). They are installed by short name
// (`openclaw plugins install <id>`) from their folder in the checkout the running core
// belongs to, never from the npm registry, whose `@openclaw` scope belongs to another project.
export { FIRST_PARTY_CHANNELS, type FirstPartyChannel } from "../config/index.js";

/** The first-party channel with this id, or undefined. */
export function firstPartyChannel(id: string): FirstPartyChannel | undefined {
  return FIRST_PARTY_CHANNELS.find((c) => c.id === id);
}

/** The first-party channel whose package is `packageName`, or undefined. */
export function firstPartyByPackage(packageName: string): FirstPartyChannel | undefined {
  return FIRST_PARTY_CHANNELS.find((c) => c.packageName === packageName);
}

/**
 * The root of the OpenClaw checkout the running core belongs to: two folders above core's own
 * package folder (`<root>/packages/core`). This file sits in `src/plugins/` or `dist/plugins/`.
 */
export function coreCheckoutRoot(): string {
  return path.resolve(fileURLToPath(new URL("../../", import.meta.url)), "..", "..");
}

/**
 * How to install the plugin that provides `channel`: the short name for a first-party channel,
 * else `packageName` (or a placeholder when unknown).
 */
export function installCommandFor(channel: string, packageName?: string): string {
  const firstParty = firstPartyChannel(channel) ?? (packageName ? firstPartyByPackage(packageName) : undefined);
  return `openclaw plugins install ${firstParty?.id ?? packageName ?? "<package name, .tgz tarball or folder>"}`;
}
