import { previewModeWarnings } from "./capability-warnings.js";
import { channelScopes } from "./channel-scopes.js";
import type { ConfigRegistry } from "./registry.js";

/**
 * Streaming settings the channels' declared capabilities cannot honour (a live preview on a
 * channel that cannot edit, `nativeTransport` without a native stream, a preview chunk above the
 * edit limit), for the channel root and every account, each with its config path. Printed by
 * `openclaw config validate` and at gateway start, before anything runs.
 */
export function streamingWarnings(config: unknown, registry: Pick<ConfigRegistry, "channels">): string[] {
  const defs = new Map(registry.channels.map((def) => [def.id, def]));
  return channelScopes(config).flatMap(({ channelId, path, entry }) => {
    const def = defs.get(channelId);
    return def ? previewModeWarnings(def.id, entry.streaming, def.capabilities, { path: `${path}.streaming`, policy: def.delivery }) : [];
  });
}
