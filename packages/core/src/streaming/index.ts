// Public surface of the streaming concern: the block chunker, outbound chunking, the coalescer,
// settings resolution and the silent reply token. Other folders import from here only.
// The chunker lives in the plugin SDK, so channels and core split text the same way.
export {
  BlockChunker,
  BREAK_PREFERENCES,
  chunkText,
  type BlockChunkerOptions,
  type BreakPreference,
  type ChunkMode,
  type ChunkTextOptions,
  type FlushOptions,
} from "@openclaw/plugin-sdk";
export {
  createBlockCoalescer,
  joinerForBreakPreference,
  type BlockCoalescer,
  type BlockCoalescerOptions,
  type CoalescerTimers,
  type EnqueueOptions,
} from "./coalescer.js";
export {
  resolveBlockStreamingSettings,
  DEFAULT_TEXT_CHUNK_LIMIT,
  DEFAULT_BLOCK_MIN_CHARS,
  DEFAULT_BLOCK_MAX_CHARS,
  DEFAULT_COALESCE_IDLE_MS,
  type BlockStreamingSettings,
  type BlockStreamingConfigSource,
  type CoalesceConfig,
  type ResolveBlockStreamingOptions,
} from "./settings.js";
export { SILENT_REPLY_TOKEN, isSilentReply, createSilentReplyGuard, type SilentReplyGuard } from "./silent-reply.js";
