// Resolution of the block-streaming knobs (reference §8, "Resolution"; DESIGN.md "Streaming: what
// the config means") into the numbers the chunker and coalescer take.
import { joinerForBreakPreference } from "@openclaw/delivery";
import { BREAK_PREFERENCES, type BreakPreference, type ChunkMode } from "@openclaw/plugin-sdk";

/** Coalescing knobs as written in config (`blockStreamingCoalesce`, `streaming.block.coalesce`). */
export interface CoalesceConfig {
  minChars?: number;
  maxChars?: number;
  idleMs?: number;
}

/** The part of the OpenClaw config read here (the validated config fits; so does raw JSON). */
export interface BlockStreamingConfigSource {
  agents?: {
    defaults?: {
      blockStreamingBreak?: string;
      blockStreamingChunk?: { minChars?: number; maxChars?: number; breakPreference?: string };
      blockStreamingCoalesce?: CoalesceConfig;
    };
  };
}

export interface ResolveBlockStreamingOptions {
  /** The agent replying. Reserved: the schema has no per-agent block-streaming keys yet. */
  agentId?: string;
  /** The channel/account textChunkLimit (account first, resolved by the caller). Default 4000. */
  channelTextLimit?: number;
  /** The channel/account `streaming.block.coalesce`; replaces `agents.defaults.blockStreamingCoalesce` whole. */
  channelCoalesce?: CoalesceConfig;
  /** The channel plugin's own coalescing defaults (minChars, idleMs). */
  channelCoalesceDefaults?: CoalesceConfig;
  /** The channel/account `streaming.chunkMode`. Default "length". */
  channelChunkMode?: ChunkMode;
}

export interface BlockStreamingSettings {
  /** Chunker lower bound: min(blockStreamingChunk.minChars ?? 800, maxChars). */
  minChars: number;
  /** Chunker upper bound: min(blockStreamingChunk.maxChars ?? 1200, textChunkLimit). */
  maxChars: number;
  breakPreference: BreakPreference;
  chunkMode: ChunkMode;
  /** The channel's message size limit the bounds were clamped to. */
  textChunkLimit: number;
  coalesce: {
    /** channel coalesce ?? agent coalesce, then the plugin default, then the chunk minChars. */
    minChars: number;
    /**
     * min(coalesce maxChars ?? the chunk maxChars, textChunkLimit): by default merging never
     * makes a block bigger than the chunker's blocks (1200), so blocks still leave one by one
     * when the model streams without pauses; a coalesce maxChars set in config may go up to the
     * channel's textChunkLimit.
     */
    maxChars: number;
    /** Default 1000. */
    idleMs: number;
    /** From the break preference: "\n\n", "\n" or " ". */
    joiner: string;
  };
  /** When blocks are force-flushed: at each text end (default) or only at the message end. */
  break: "text_end" | "message_end";
}

export const DEFAULT_TEXT_CHUNK_LIMIT = 4000;
export const DEFAULT_BLOCK_MIN_CHARS = 800;
export const DEFAULT_BLOCK_MAX_CHARS = 1200;
export const DEFAULT_COALESCE_IDLE_MS = 1000;

function positiveInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}

function nonNegative(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Resolves the block-streaming settings for one reply from `agents.defaults.blockStreamingChunk`,
 * `blockStreamingCoalesce`, `blockStreamingBreak` and the channel's overrides. Invalid or missing
 * values fall back to the documented defaults (800 / 1200 / paragraph, idle 1000 ms, text_end;
 * coalescing up to the chunk's maxChars unless its own maxChars is set).
 */
export function resolveBlockStreamingSettings(
  config: BlockStreamingConfigSource | null | undefined,
  options: ResolveBlockStreamingOptions = {},
): BlockStreamingSettings {
  const defaults = config?.agents?.defaults;
  const chunk = defaults?.blockStreamingChunk;
  const textChunkLimit = positiveInt(options.channelTextLimit) ?? DEFAULT_TEXT_CHUNK_LIMIT;
  const maxChars = Math.min(positiveInt(chunk?.maxChars) ?? DEFAULT_BLOCK_MAX_CHARS, textChunkLimit);
  const minChars = Math.min(positiveInt(chunk?.minChars) ?? DEFAULT_BLOCK_MIN_CHARS, maxChars);
  const breakPreference = BREAK_PREFERENCES.includes(chunk?.breakPreference as BreakPreference)
    ? (chunk?.breakPreference as BreakPreference)
    : "paragraph";
  const coalesce = options.channelCoalesce ?? defaults?.blockStreamingCoalesce;
  const pluginDefaults = options.channelCoalesceDefaults;
  const coalesceMax = Math.min(positiveInt(coalesce?.maxChars) ?? maxChars, textChunkLimit);
  const coalesceMin = Math.min(positiveInt(coalesce?.minChars) ?? positiveInt(pluginDefaults?.minChars) ?? minChars, coalesceMax);
  const idleMs = nonNegative(coalesce?.idleMs) ?? nonNegative(pluginDefaults?.idleMs) ?? DEFAULT_COALESCE_IDLE_MS;
  return {
    minChars,
    maxChars,
    breakPreference,
    chunkMode: options.channelChunkMode === "newline" ? "newline" : "length",
    textChunkLimit,
    coalesce: { minChars: coalesceMin, maxChars: coalesceMax, idleMs, joiner: joinerForBreakPreference(breakPreference) },
    break: defaults?.blockStreamingBreak === "message_end" ? "message_end" : "text_end",
  };
}
