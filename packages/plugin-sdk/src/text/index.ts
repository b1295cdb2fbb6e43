// Text chunking every channel shares: the incremental block chunker and one-shot outbound chunking.
export {
  BlockChunker,
  BREAK_PREFERENCES,
  type BlockChunkerOptions,
  type BreakPreference,
  type ChunkMode,
  type FlushOptions,
} from "./chunker.js";
export { chunkText, type ChunkTextOptions } from "./chunk-text.js";
export { isBlank } from "./chars.js";
export { findCodeFences, type CodeFence } from "./code-fences.js";
export { decodeCharacterReferences } from "./char-references.js";
export { redactUrl } from "./redact-url.js";
