import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isValidAgentId, normalizeAgentId } from "../agents/index.js";
import { legacySessionsDir } from "./paths.js";
import { openAgentStore, type SessionStore } from "./store.js";
import type { SessionEntry, TranscriptEventInput } from "./types.js";

/** What one import run did. */
export interface LegacyImportReport {
  agentId: string;
  /** The sessions.json that was read; absent when there was none. */
  source?: string;
  /** Sessions newly written to SQLite. */
  imported: number;
  /** Sessions already in SQLite from an earlier run (or otherwise not importable). */
  skipped: number;
  /** Transcript events written. */
  events: number;
  /** Human-readable problems, each starting with `file:line` where there is one. */
  problems: string[];
}

export interface LegacyImportOptions {
  stateDir: string;
  agentId?: string;
  /** The gateway's open store; without it the importer opens (and closes) the writer itself. */
  store?: SessionStore;
  /** Called after each session entry, with how many of `total` are done (for progress). */
  onProgress?: (done: number, total: number) => void;
}

type Loose = Record<string, unknown>;

/** Milliseconds from a number (ms, or s when small) or an ISO string; undefined otherwise. */
export function toMillis(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v < 1e11 ? Math.round(v * 1000) : Math.round(v);
  if (typeof v === "string" && v.trim() !== "") {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

function isObject(v: unknown): v is Loose {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Store inputs parsed from a transcript, with the header's and the last entry's times. */
export interface ParsedTranscript {
  events: TranscriptEventInput[];
  headerTime?: number;
  lastTime?: number;
}

/** Reads a JSONL transcript into store inputs, repairing what it can and reporting the rest. */
function readTranscript(file: string, sessionId: string, fallbackTime: number, problems: string[]): ParsedTranscript {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .map((text, i) => ({ text, where: `${file}:${i + 1}` }));
  return parseTranscriptLines(lines, sessionId, fallbackTime, problems);
}

/** One serialized transcript entry and where it was read (`file:line`, or a database row). */
export interface TranscriptLine {
  text: string;
  where: string;
}

/**
 * Turns serialized transcript entries (the pi session format: a `session` header, then
 * `message`, `model_change`, `custom`, ... entries chained by `parentId`) into store inputs for
 * `sessionId`: a missing header is added, duplicate ids and unparsable entries are skipped and
 * reported in `problems` (each starting with its `where`), a parent that is not an earlier entry
 * becomes the previous entry. Used for legacy JSONL files and the reference's transcript rows.
 */
export function parseTranscriptLines(
  lines: readonly TranscriptLine[],
  sessionId: string,
  fallbackTime: number,
  problems: string[],
): ParsedTranscript {
  const events: TranscriptEventInput[] = [];
  const seen = new Set<string>();
  let headerTime: number | undefined;
  let lastTime: number | undefined;
  let last: string = sessionId;
  lines.forEach(({ text: line, where }, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      problems.push(`${where}: not valid JSON (${(err as Error).message}); line skipped`);
      return;
    }
    if (!isObject(value) || typeof value.type !== "string" || value.type === "") {
      problems.push(`${where}: not a transcript entry (no "type"); line skipped`);
      return;
    }
    const t = toMillis(value.timestamp);
    if (value.type === "session") {
      if (events.length > 0) {
        problems.push(`${where}: a second "session" header; line skipped`);
        return;
      }
      headerTime = t;
      events.push({ ...value, type: "session", id: sessionId, timestamp: new Date(t ?? fallbackTime).toISOString() });
      seen.add(sessionId);
      return;
    }
    if (events.length === 0) {
      problems.push(`${where}: transcript does not start with a "session" header; one was added`);
      events.push({ type: "session", version: 1, id: sessionId, timestamp: new Date(t ?? fallbackTime).toISOString() });
      seen.add(sessionId);
    }
    const ev: TranscriptEventInput = { ...value, type: value.type };
    let id = typeof value.id === "string" && value.id !== "" ? value.id : undefined;
    if (id !== undefined && seen.has(id)) {
      problems.push(`${where}: duplicate entry id "${id}"; line skipped`);
      return;
    }
    if (id === undefined) id = `legacy-${i + 1}`;
    ev.id = id;
    // The store roots every transcript at its header; a legacy root entry hangs off it.
    if (value.parentId === null) {
      ev.parentId = sessionId;
    } else if (typeof value.parentId === "string" && seen.has(value.parentId)) {
      ev.parentId = value.parentId;
    } else {
      if (value.parentId !== undefined) {
        problems.push(`${where}: parentId "${String(value.parentId)}" is not an earlier entry; attached to the previous entry`);
      }
      ev.parentId = last;
    }
    if (typeof value.timestamp !== "string") ev.timestamp = new Date(t ?? lastTime ?? fallbackTime).toISOString();
    if (t !== undefined) lastTime = t;
    seen.add(id);
    last = id;
    events.push(ev);
  });
  const out: ParsedTranscript = { events };
  if (headerTime !== undefined) out.headerTime = headerTime;
  if (lastTime !== undefined) out.lastTime = lastTime;
  return out;
}

/**
 * Imports `<stateDir>/agents/<agentId>/sessions/sessions.json` and each session's
 * `<sessionId>.jsonl` into the agent's SQLite store. Idempotent: a session already in SQLite is
 * skipped, so a second run imports nothing. The source files are never changed or deleted. An
 * entry without `sessionStartedAt` takes it from the JSONL header. A key that already has a
 * (newer) entry in SQLite keeps it; the imported session is still stored in its history.
 * Malformed JSON lines and entries are reported as `file:line` problems and skipped; the import
 * never throws for bad input (it does throw `StoreLockedError` when opening its own writer while
 * the gateway runs).
 */
export function importLegacySessions(options: LegacyImportOptions): LegacyImportReport {
  const agentId = normalizeAgentId(options.agentId);
  const report: LegacyImportReport = { agentId, imported: 0, skipped: 0, events: 0, problems: [] };
  // A legacy directory may be spelled with capitals (valid ids are case-insensitive).
  const given = options.agentId !== undefined && isValidAgentId(options.agentId) ? options.agentId : agentId;
  const rawDir = path.join(options.stateDir, "agents", given, "sessions");
  const dir = existsSync(rawDir) ? rawDir : legacySessionsDir(options.stateDir, agentId);
  const source = path.join(dir, "sessions.json");
  if (!existsSync(source)) return report;
  report.source = source;
  let rows: Loose;
  try {
    const parsed: unknown = JSON.parse(readFileSync(source, "utf8"));
    if (!isObject(parsed)) throw new Error("expected an object of session key -> entry");
    rows = parsed;
  } catch (err) {
    report.problems.push(`${source}:1: cannot read (${(err as Error).message}); nothing imported`);
    return report;
  }
  const store = options.store ?? openAgentStore({ stateDir: options.stateDir, agentId });
  try {
    const entries = Object.entries(rows);
    for (const [i, [key, raw]] of entries.entries()) {
      importOne(store, dir, source, key, raw, report);
      options.onProgress?.(i + 1, entries.length);
    }
  } finally {
    if (!options.store) store.close();
  }
  return report;
}

function importOne(store: SessionStore, dir: string, source: string, key: string, raw: unknown, report: LegacyImportReport): void {
  const sessionId = isObject(raw) ? raw.sessionId : undefined;
  if (!isObject(raw) || typeof sessionId !== "string" || !/^[A-Za-z0-9._-]+$/.test(sessionId)) {
    report.problems.push(`${source}: entry "${key}" has no valid sessionId; skipped`);
    report.skipped++;
    return;
  }
  const problems: string[] = [];
  const file =
    typeof raw.sessionFile === "string" && existsSync(path.resolve(dir, raw.sessionFile))
      ? path.resolve(dir, raw.sessionFile)
      : path.join(dir, `${sessionId}.jsonl`);
  const updatedAt = toMillis(raw.updatedAt);
  const fallback = toMillis(raw.sessionStartedAt) ?? updatedAt ?? Date.now();
  let transcript: ParsedTranscript = { events: [] };
  if (existsSync(file)) {
    try {
      transcript = readTranscript(file, sessionId, fallback, problems);
    } catch (err) {
      problems.push(`${file}: cannot read (${(err as Error).message}); imported without transcript`);
    }
  } else {
    problems.push(`${file}: transcript missing; entry imported without events`);
  }
  const startedAt = toMillis(raw.sessionStartedAt) ?? transcript.headerTime ?? updatedAt ?? fallback;
  if (transcript.events.length === 0) {
    transcript.events.push({ type: "session", version: 1, id: sessionId, timestamp: new Date(startedAt).toISOString() });
  }
  const entry: SessionEntry = {
    ...raw,
    sessionId,
    sessionStartedAt: startedAt,
    updatedAt: updatedAt ?? transcript.lastTime ?? startedAt,
  };
  const lastInteraction = toMillis(raw.lastInteractionAt);
  if (lastInteraction !== undefined) entry.lastInteractionAt = lastInteraction;
  try {
    const result = store.importSession({
      key,
      entry,
      events: transcript.events,
      sourcePath: file,
      problemCount: problems.length,
    });
    if (result.imported) {
      report.imported++;
      report.events += transcript.events.length;
      report.problems.push(...problems);
    } else {
      report.skipped++;
    }
  } catch (err) {
    report.problems.push(`${file}: session "${sessionId}" not imported (${(err as Error).message})`);
    report.skipped++;
  }
}

/** Agent ids (directory names under `<stateDir>/agents/`) that have a legacy sessions.json, sorted. */
export function listAgentIdsWithLegacySessions(stateDir: string): string[] {
  const agentsDir = path.join(stateDir, "agents");
  let names: string[];
  try {
    names = readdirSync(agentsDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
  return names.filter((n) => existsSync(path.join(agentsDir, n, "sessions", "sessions.json"))).sort();
}
