import { memoryIndexPath, openMemoryIndex, syncMemoryIndex } from "./index-db.js";

/** One ranked match. */
export interface MemorySearchHit {
  /** `MEMORY.md` or `memory/...md`. */
  path: string;
  startLine: number;
  endLine: number;
  /** Relevance (BM25, higher is better); only comparable within one search. */
  score: number;
  /** The matching chunk, cut to {@link MEMORY_SNIPPET_MAX_CHARS}. */
  snippet: string;
}

export interface MemorySearchOptions {
  workspaceDir: string;
  stateDir: string;
  agentId: string;
  query: string;
  /** Default 6, at most 50. */
  maxResults?: number;
}

/** Default number of results. */
export const MEMORY_SEARCH_DEFAULT_RESULTS = 6;
/** Longest snippet returned per hit. */
export const MEMORY_SNIPPET_MAX_CHARS = 700;

/**
 * Turns free text into a safe FTS5 query: every word (letters, digits, `_`) becomes a quoted
 * term, terms joined by OR so partial matches still rank (BM25 favours chunks with more terms).
 * Returns undefined when the text has no words.
 */
export function toFtsQuery(query: string): string | undefined {
  const words = query.match(/[\p{L}\p{N}_]+/gu);
  if (!words || words.length === 0) return undefined;
  const unique = [...new Set(words.map((w) => w.toLowerCase()))].slice(0, 32);
  return unique.map((w) => `"${w}"`).join(" OR ");
}

/**
 * Searches MEMORY.md and memory/*.md of a workspace. The agent's index
 * (`<stateDir>/agents/<agentId>/agent/memory-index.sqlite`) is brought up to date first, so edits
 * made a moment ago are found and deleted files are not.
 */
export async function searchMemory(options: MemorySearchOptions): Promise<MemorySearchHit[]> {
  const fts = toFtsQuery(options.query);
  const limit = Math.max(1, Math.min(50, Math.floor(options.maxResults ?? MEMORY_SEARCH_DEFAULT_RESULTS)));
  const db = openMemoryIndex(memoryIndexPath(options.stateDir, options.agentId));
  try {
    await syncMemoryIndex(db, options.workspaceDir);
    if (!fts) return [];
    const rows = db
      .prepare(
        "SELECT path, start_line, end_line, text, bm25(chunks) AS rank FROM chunks WHERE chunks MATCH ? ORDER BY rank, path, start_line LIMIT ?",
      )
      .all(fts, limit) as Array<{ path: string; start_line: number; end_line: number; text: string; rank: number }>;
    return rows.map((r) => ({
      path: r.path,
      startLine: r.start_line,
      endLine: r.end_line,
      score: Number((-r.rank).toFixed(6)),
      snippet: r.text.length > MEMORY_SNIPPET_MAX_CHARS ? `${r.text.slice(0, MEMORY_SNIPPET_MAX_CHARS - 1)}…` : r.text,
    }));
  } finally {
    db.close();
  }
}
