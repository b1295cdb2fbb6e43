/**
 * `@openclaw/plugin-sdk/config`: what a channel's light config entry is built from — the config
 * fragments for the nested `streaming` shape and the channel-common keys, the definition type
 * with its delivery policy and id rules, and doctor migrations as data.
 */
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
} from "./streaming.js";
export {
  accountIdSchema,
  dmPolicySchema,
  groupPolicySchema,
  senderListSchema,
  DEFAULT_MAX_INBOUND_CHARS,
  groupSettingsShape,
  channelCommonShape,
  channelConfigSchema,
} from "./channel-common.js";
export {
  defineChannelConfig,
  type ChannelConfigDefinition,
  type BlockReplyDefault,
  type DeliveryPolicy,
  type DeliveryPreviewMode,
  type ChannelIdRules,
  type SenderIdProblem,
} from "./channel-definition.js";
export {
  applyLegacyKeyRules,
  detectLegacyKeys,
  type LegacyKeyRule,
  type LegacyFinding,
  type MigrationOutcome,
} from "../migrations/types.js";
export {
  CHANNEL_MIGRATION_KINDS,
  compileChannelMigrations,
  type ChannelMigration,
  type StreamingAliasMigration,
  type KeyMoveMigration,
  type OpenMeansAllowlistMigration,
} from "../migrations/data.js";
export {
  STANDARD_FLAT_KEYS,
  DRAFT_CHUNK_KEY,
  type FlatKeyMove,
  type NestedRename,
  type ValueExpectation,
} from "../migrations/streaming-aliases.js";
export { defineKeyMoveRule } from "../migrations/key-move.js";
export { formatPath, getPath, hasPath, setPath, deletePath, isPlainObject, type ConfigObject } from "../migrations/object-path.js";
