import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { normalizeAgentId } from "../sessions/index.js";
import { readRegularFile } from "../tools/fs/regular-file.js";
import { chunkMarkdown } from "./chunk.js";
import { listMemoryFiles } from "./files.js";

/** File name of the per-agent memory index. */
export const MEMORY_INDEX_FILE = "memory-index.sqlite";
const SCHEMA_VERSION = 1;

/** `<stateDir>/agents/<agentId>/agent/memory-index.sqlite` (agent id normalized). */
export function memoryIndexPath(stateDir: string, agentId: string): string {
  return path.join(stateDir, "agents", normalizeAgentId(agentId), "agent", MEMORY_INDEX_FILE);
}

/** What a sync changed. */
export interface MemorySyncReport {
  indexed: string[];
  removed: string[];
  unchanged: number;
}

function createSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, mtime_ms REAL NOT NULL, size INTEGER NOT NULL);
    CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING fts5(
      text, path UNINDEXED, start_line UNINDEXED, end_line UNINDEXED,
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
  `);
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

/**
 * Opens (creating when missing) an agent's memory index. The index is a cache: a file from
 * another schema version or one SQLite cannot read is deleted and rebuilt.
 */
export function openMemoryIndex(file: string): Database.Database {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; ; attempt++) {
    let db: Database.Database | undefined;
    try {
      db = new Database(file);
      db.pragma("busy_timeout = 5000");
      db.pragma("journal_mode = WAL");
      const version = db.pragma("user_version", { simple: true }) as number;
      if (version !== 0 && version !== SCHEMA_VERSION) throw new Error(`memory index schema ${version}`);
      createSchema(db);
      return db;
    } catch (err) {
      db?.close();
      if (attempt > 0) throw err;
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    }
  }
}

/** Options of `syncMemoryIndex`. */
export interface MemorySyncOptions {
  /** Called after each memory file was looked at, with how many of `total` are done (for progress). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Brings the index in line with the workspace: files whose mtime or size changed (or that are
 * new) are re-chunked, files that vanished are dropped. One transaction.
 */
export async function syncMemoryIndex(
  db: Database.Database,
  workspaceDir: string,
  options: MemorySyncOptions = {},
): Promise<MemorySyncReport> {
  const files = await listMemoryFiles(workspaceDir);
  let seen = 0;
  const known = new Map(
    (db.prepare("SELECT path, mtime_ms, size FROM files").all() as Array<{ path: string; mtime_ms: number; size: number }>).map((r) => [
      r.path,
      r,
    ]),
  );
  const changed: Array<{ relative: string; mtimeMs: number; size: number; text: string }> = [];
  let unchanged = 0;
  for (const f of files) {
    options.onProgress?.(++seen, files.length);
    const row = known.get(f.relative);
    known.delete(f.relative);
    if (row && row.mtime_ms === f.mtimeMs && row.size === f.size) {
      unchanged++;
      continue;
    }
    const text = await readRegularFile(f.path, { display: f.relative, tool: "memory_search" })
      .then((b) => b.toString("utf8"))
      .catch(() => undefined);
    if (text !== undefined) changed.push({ relative: f.relative, mtimeMs: f.mtimeMs, size: f.size, text });
  }
  const removed = [...known.keys()];
  if (changed.length > 0 || removed.length > 0) {
    const delChunks = db.prepare("DELETE FROM chunks WHERE path = ?");
    const delFile = db.prepare("DELETE FROM files WHERE path = ?");
    const insChunk = db.prepare("INSERT INTO chunks (text, path, start_line, end_line) VALUES (?, ?, ?, ?)");
    const upsertFile = db.prepare(
      "INSERT INTO files (path, mtime_ms, size) VALUES (?, ?, ?) ON CONFLICT(path) DO UPDATE SET mtime_ms = excluded.mtime_ms, size = excluded.size",
    );
    db.transaction(() => {
      for (const p of removed) {
        delChunks.run(p);
        delFile.run(p);
      }
      for (const f of changed) {
        delChunks.run(f.relative);
        for (const c of chunkMarkdown(f.text)) insChunk.run(c.text, f.relative, c.startLine, c.endLine);
        upsertFile.run(f.relative, f.mtimeMs, f.size);
      }
    })();
  }
  return { indexed: changed.map((c) => c.relative), removed, unchanged };
}
