import path from "node:path";
import { fileURLToPath } from "node:url";

/** A channel plugin that lives in this repository. */
export interface FirstPartyChannel {
  /** The channel id (the key under `channels`), also the plugin id and the short install name. */
  id: string;
  /** The package name in the folder's package.json. */
  packageName: string;
  /** The plugin's folder, relative to the root of the OpenClaw checkout. */
  folder: string;
}

/**
 * The first-party channels: the one place core maps a channel id to its package. They are
 * installed by short name (`openclaw plugins install telegram`) from `folder` in the checkout the
 * running core belongs to, never from the npm registry, whose `@openclaw` scope belongs to
 * another project.
 */
export const FIRST_PARTY_CHANNELS: readonly FirstPartyChannel[] = [
  { id: "telegram", packageName: "@openclaw/telegram", folder: "extensions/telegram" },
  { id: "matrix", packageName: "@openclaw/matrix", folder: "extensions/matrix" },
  { id: "feishu", packageName: "@openclaw/feishu", folder: "extensions/feishu" },
  { id: "qqbot", packageName: "@openclaw/qqbot", folder: "extensions/qqbot" },
  { id: "whatsapp", packageName: "@openclaw/whatsapp", folder: "extensions/whatsapp" },
];

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
