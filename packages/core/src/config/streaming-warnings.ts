import { previewModeWarnings } from "./capability-warnings.js";
import { isPlainObject } from "@openclaw/plugin-sdk/config";
import type { ConfigRegistry } from "./registry.js";

/**
 * Streaming settings the channels' declared capabilities cannot honour (a live preview on a
 * channel that cannot edit, `nativeTransport` without a native stream, a preview chunk above the
 * edit limit), for the channel root and every account, each with its config path. Printed by
 * `openclaw config validate` and at gateway start, before anything runs.
 */
export function streamingWarnings(config: unknown, registry: Pick<ConfigRegistry, "channels">): string[] {
  const channels = isPlainObject(config) && isPlainObject(config.channels) ? config.channels : {};
  const out: string[] = [];
  for (const def of registry.channels) {
    const channel = channels[def.id];
    if (!isPlainObject(channel)) continue;
    const root = `channels.${def.id}`;
    out.push(...previewModeWarnings(def.id, channel.streaming, def.capabilities, { path: `${root}.streaming` }));
    const accounts = isPlainObject(channel.accounts) ? channel.accounts : {};
    for (const [id, account] of Object.entries(accounts)) {
      if (!isPlainObject(account)) continue;
      out.push(...previewModeWarnings(def.id, account.streaming, def.capabilities, { path: `${root}.accounts.${id}.streaming` }));
    }
  }
  return out;
}
