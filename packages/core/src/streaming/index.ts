// Public surface of the streaming concern: the block chunker, outbound chunking, the coalescer,
// settings resolution and the silent reply token. Other folders import from here only.
// The chunker lives in the plugin SDK, so channels and core split text the same way; the
// coalescer and the silent-reply guard live in the delivery engine, which applies them.
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
  SILENT_REPLY_TOKEN,
  isSilentReply,
  createSilentReplyGuard,
  type BlockCoalescer,
  type BlockCoalescerOptions,
  type CoalescerTimers,
  type EnqueueOptions,
  type SilentReplyGuard,
} from "@openclaw/delivery";
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
