/**
 * @openclaw/plugin-sdk: the contract an OpenClaw channel plugin builds against.
 * Config fragments for the nested `streaming` shape and the channel-common keys, and the
 * helpers that declare doctor migrations for retired keys, text chunking, and the channel plugin
 * contract with its send errors. The delivery engine a host drives (send budget, live preview,
 * native streams, exactly-once finals) is `@openclaw/delivery`.
 */
/**
 * The zod instance the host validates config with. Build a channel's config schema with this `z`
 * (not a copy of zod of your own), so its schemas compose with the SDK's fragments and the host.
 */
export { z } from "zod";
export {
  chunkModeSchema,
  blockCoalesceSchema,
  streamingBlockSchema,
  previewChunkSchema,
  previewOptionsSchema,
  progressOptionsSchema,
  previewStreamingSchema,
  deliveryOnlyStreamingSchema,
  PREVIEW_MODES,
  type PreviewMode,
} from "./config/streaming.js";
export {
  accountIdSchema,
  dmPolicySchema,
  groupPolicySchema,
  senderListSchema,
  groupSettingsShape,
  channelCommonShape,
  channelConfigSchema,
} from "./config/channel-common.js";
export {
  defineChannelConfig,
  type ChannelConfigDefinition,
  type BlockReplyDefault,
} from "./config/channel-definition.js";
export {
  applyLegacyKeyRules,
  detectLegacyKeys,
  type LegacyKeyRule,
  type LegacyFinding,
  type MigrationOutcome,
} from "./migrations/types.js";
export {
  defineStreamingAliasMigration,
  STANDARD_FLAT_KEYS,
  DRAFT_CHUNK_KEY,
  type StreamingAliasSpec,
  type FlatKeyMove,
  type NestedRename,
} from "./migrations/streaming-aliases.js";
export { defineKeyMoveRule } from "./migrations/key-move.js";
export {
  formatPath,
  getPath,
  hasPath,
  setPath,
  deletePath,
  isPlainObject,
  type ConfigObject,
} from "./migrations/object-path.js";
export {
  BlockChunker,
  BREAK_PREFERENCES,
  chunkText,
  isBlank,
  type BlockChunkerOptions,
  type BreakPreference,
  type ChunkMode,
  type ChunkTextOptions,
  type FlushOptions,
} from "./text/index.js";
export * from "./channel/index.js";
