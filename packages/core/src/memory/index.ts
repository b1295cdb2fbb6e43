// Public surface of the memory concern: MEMORY.md and memory/*.md of a workspace, searched through
// a per-agent SQLite FTS5 index, read by path, and the daily notes for the prompt. Other folders
// import from here only. (The memory_search / memory_get tools wrapping this live in tools/.)
export { chunkMarkdown, MEMORY_CHUNK_MAX_CHARS, type MemoryChunk } from "./chunk.js";
export {
  listMemoryFiles,
  isMemoryPath,
  resolveMemoryPath,
  MemoryPathError,
  MEMORY_ROOT_FILE,
  MEMORY_DIR,
  type MemoryFileEntry,
} from "./files.js";
export {
  memoryIndexPath,
  openMemoryIndex,
  syncMemoryIndex,
  MEMORY_INDEX_FILE,
  type MemorySyncOptions,
  type MemorySyncReport,
} from "./index-db.js";
export {
  searchMemory,
  toFtsQuery,
  MEMORY_SEARCH_DEFAULT_RESULTS,
  MEMORY_SNIPPET_MAX_CHARS,
  type MemorySearchHit,
  type MemorySearchOptions,
} from "./search.js";
export { getMemoryFile, type MemoryGetOptions, type MemoryGetResult } from "./get.js";
export { dailyMemoryFiles, localDateStamp, type DailyMemoryFile } from "./daily.js";
