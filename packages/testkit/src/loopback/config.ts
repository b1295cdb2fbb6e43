// channels.<id> of the loopback channel: the common keys, the nested streaming object, accounts.
import { channelConfigSchema, defineChannelConfig, previewStreamingSchema, type ChannelConfigDefinition } from "@openclaw/plugin-sdk";

/** The preview modes the loopback channel accepts under `streaming.mode`. */
export const LOOPBACK_PREVIEW_MODES = ["off", "partial", "block", "progress"] as const;

/**
 * The config definition of a loopback channel: `channels.<id>` takes the common keys (dmPolicy,
 * allowFrom, groups, textChunkLimit, …) and `streaming { mode off|partial|block|progress,
 * chunkMode, preview, progress, block }`, at the root and under `accounts.<id>`. Defaults: preview
 * mode "partial"; block replies only with an explicit `streaming.block.enabled: true`.
 *
 * @param id the channel id (default "loopback").
 * @param textLimit the default `textChunkLimit` (default 4000).
 */
export function loopbackChannelConfig(id = "loopback", textLimit = 4000): ChannelConfigDefinition {
  const key = `${id}:${textLimit}`;
  let definition = definitions.get(key);
  if (definition === undefined) {
    definition = buildDefinition(id, textLimit);
    definitions.set(key, definition);
  }
  return definition;
}

/** Definitions already built (the config entry and the plugin share one). */
const definitions = new Map<string, ChannelConfigDefinition>();

function buildDefinition(id: string, textLimit: number): ChannelConfigDefinition {
  return defineChannelConfig({
    id,
    label: "Loopback",
    packageName: "@openclaw/testkit",
    streamingDefaults: { previewMode: "partial", blockReplies: "explicit" },
    schema: channelConfigSchema({
      description: `channels.${id}: the in-memory loopback channel of @openclaw/testkit (tests and benchmarks only).`,
      textChunkLimit: textLimit,
      streaming: previewStreamingSchema({ modes: LOOPBACK_PREVIEW_MODES, defaultMode: "partial" }),
      shared: {},
    }),
    migrations: [],
  });
}
