// channels.<id> of the loopback channel: the common keys, the nested streaming object, accounts.
import type { ChannelCapabilities } from "@openclaw/plugin-sdk";
import {
  channelConfigSchema,
  defineChannelConfig,
  previewStreamingSchema,
  type ChannelConfigDefinition,
} from "@openclaw/plugin-sdk/config";

/** The preview modes the loopback channel accepts under `streaming.mode`. */
export const LOOPBACK_PREVIEW_MODES = ["off", "partial", "block", "progress"] as const;

/**
 * The config definition of a loopback channel: `channels.<id>` takes the common keys (dmPolicy,
 * allowFrom, groups, textChunkLimit, …) and `streaming { mode off|partial|block|progress,
 * chunkMode, preview, progress, block }`, at the root and under `accounts.<id>`. Defaults: preview
 * mode "partial"; block replies only with an explicit `streaming.block.enabled: true`.
 *
 * @param id the channel id (default "loopback").
 * @param capabilities overrides of the default capabilities (see `LOOPBACK_CAPABILITIES`).
 */
export function loopbackChannelConfig(id = "loopback", capabilities: Partial<ChannelCapabilities> = {}): ChannelConfigDefinition {
  const caps: ChannelCapabilities = { ...LOOPBACK_CAPABILITIES, ...capabilities };
  const key = `${id}:${JSON.stringify(caps)}`;
  let definition = definitions.get(key);
  if (definition === undefined) {
    definition = buildDefinition(id, caps);
    definitions.set(key, definition);
  }
  return definition;
}

/**
 * The loopback channel's capabilities unless overridden: every chat type, edit, delete, threads
 * and typing on, media and reactions off, 4000/4096 characters, edits at most every 250 ms, and
 * no send quota (`sendRate` Infinity).
 */
export const LOOPBACK_CAPABILITIES: ChannelCapabilities = {
  chatTypes: ["direct", "group", "channel"],
  edit: true,
  delete: true,
  media: false,
  reactions: false,
  threads: true,
  typing: true,
  textLimit: 4000,
  editLimit: 4096,
  minEditIntervalMs: 250,
  sendRate: { perChat: Number.POSITIVE_INFINITY, global: Number.POSITIVE_INFINITY },
};

/** Definitions already built (the config entry and the plugin share one). */
const definitions = new Map<string, ChannelConfigDefinition>();

function buildDefinition(id: string, capabilities: ChannelCapabilities): ChannelConfigDefinition {
  const textLimit = capabilities.textLimit;
  return defineChannelConfig({
    id,
    label: "Loopback",
    packageName: "@openclaw/testkit",
    capabilities,
    // With a native stream declared, mode "partial" streams natively (as a CardKit-like channel does).
    delivery: {
      previewModes: ["partial", "block", "progress"],
      defaultMode: "partial",
      blockReplies: "explicit",
      ...(capabilities.nativeStream ? { nativeStream: { mode: "partial", overBlocks: false } } : {}),
    },
    schema: channelConfigSchema({
      description: `channels.${id}: the in-memory loopback channel of @openclaw/testkit (tests and benchmarks only).`,
      textChunkLimit: textLimit,
      streaming: previewStreamingSchema({ modes: LOOPBACK_PREVIEW_MODES, defaultMode: "partial" }),
      shared: {},
    }),
    migrations: [],
  });
}
