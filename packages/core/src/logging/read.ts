import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { UserError } from "../config/paths.js";
import { LOG_LEVELS, type LogLevelName, type LogRecord, parseLogLine } from "./format.js";
import { DEFAULT_LOG_KEEP } from "./rotating-file.js";

/** Which records to show: at or above `level`, at or after `since` (ms since the epoch). */
export interface LogFilter {
  level?: LogLevelName;
  since?: number;
}

/** True when `record` passes `filter`. */
export function matchesFilter(record: LogRecord, filter: LogFilter): boolean {
  if (filter.level !== undefined && record.level < LOG_LEVELS[filter.level]) return false;
  if (filter.since !== undefined && record.time < filter.since) return false;
  return true;
}

/** `file` and its rotated copies that exist, oldest first (`file.<n>` … `file.1`, `file`). */
export function logFilesOldestFirst(file: string, keep = Math.max(DEFAULT_LOG_KEEP, 20)): string[] {
  const rotated: string[] = [];
  for (let i = keep; i >= 1; i--) if (existsSync(`${file}.${i}`)) rotated.push(`${file}.${i}`);
  return existsSync(file) ? [...rotated, file] : rotated;
}

/**
 * Every record in `file` and its rotated copies, oldest first, that passes `filter`; lines that are
 * not records are skipped. `liveText` replaces what is read from `file` itself (a follower's head).
 */
export function readLogRecords(file: string, filter: LogFilter = {}, liveText?: string): { record: LogRecord; line: string }[] {
  const out: { record: LogRecord; line: string }[] = [];
  for (const f of logFilesOldestFirst(file)) {
    const text = f === file && liveText !== undefined ? liveText : readFileSync(f, "utf8");
    for (const line of text.split("\n")) {
      const record = parseLogLine(line);
      if (record && matchesFilter(record, filter)) out.push({ record, line });
    }
  }
  return out;
}

/** `--level` (or `source`, e.g. OPENCLAW_LOG_LEVEL): one of trace, debug, info, warn, error, fatal. */
export function parseLevel(text: string, source = "--level"): LogLevelName {
  const name = text.toLowerCase();
  if (name in LOG_LEVELS) return name as LogLevelName;
  throw new UserError(`${source} "${text}" is not a level; use one of ${Object.keys(LOG_LEVELS).join(", ")}.`, 2);
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: a duration back from `now` (`30s`, `10m`, `2h`, `7d`) or a date/time (`2024-05-01`, `2024-05-01T12:00`). */
export function parseSince(text: string, now: number = Date.now()): number {
  const duration = /^(\d+(?:\.\d+)?)\s*([smhd])$/i.exec(text.trim());
  if (duration) return now - Number(duration[1]) * (UNITS[duration[2]!.toLowerCase()] ?? 0);
  const at = Date.parse(text);
  if (!Number.isNaN(at)) return at;
  throw new UserError(`--since "${text}" is neither a duration (30s, 10m, 2h, 7d) nor a date (2024-05-01 or 2024-05-01T12:00).`, 2);
}

/**
 * Follows a log file as `tail -F` does: each `poll()` hands every new complete line to `onLine`,
 * across rotations (the rest of the renamed file is read first, then the new file from its start)
 * and truncation. It starts at the file's current end; a missing file is waited for. `start`
 * polls on an interval; tests call `poll()` themselves.
 */
export class LogFollower {
  private fd: number | undefined;
  private ino = -1;
  private offset = 0;
  private partial = Buffer.alloc(0);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly onLine: (line: string) => void,
  ) {
    if (existsSync(file)) {
      this.open();
      this.offset = fstatSync(this.fd!).size;
    }
  }

  /**
   * What the file held when the follower opened it (before the first `poll`), read from the same
   * open file: print this first, then what `poll` brings, and no line is missed or shown twice.
   */
  readHead(): string {
    if (this.fd === undefined) return "";
    const head = Buffer.alloc(this.offset);
    readSync(this.fd, head, 0, head.length, 0);
    // A line still being written is left to `poll`, which reads it whole.
    this.offset = head.lastIndexOf(0x0a) + 1;
    return head.subarray(0, this.offset).toString("utf8");
  }

  /** Reads what was appended since the last poll, following a rotation or truncation. */
  poll(): void {
    if (this.fd === undefined) {
      if (!existsSync(this.file)) return;
      this.open();
    }
    this.drain();
    let current: ReturnType<typeof statSync> | undefined;
    try {
      current = statSync(this.file);
    } catch {
      return; // rotated away and not yet recreated: keep the old one until the new one appears
    }
    if (current.ino !== this.ino) {
      closeSync(this.fd!);
      this.open();
      this.drain();
    } else if (current.size < this.offset) {
      this.offset = 0; // truncated in place
      this.partial = Buffer.alloc(0);
      this.drain();
    }
  }

  /** Polls every `intervalMs` (default 250) until `stop`. */
  start(intervalMs = 250): void {
    this.timer = setInterval(() => this.poll(), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): void {
    this.fd = openSync(this.file, "r");
    this.ino = fstatSync(this.fd).ino;
    this.offset = 0;
    this.partial = Buffer.alloc(0);
  }

  private drain(): void {
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      const n = readSync(this.fd!, buffer, 0, buffer.length, this.offset);
      if (n <= 0) break;
      this.offset += n;
      // Split on newline bytes, so a character cut at the buffer's end waits for its other bytes.
      const bytes = Buffer.concat([this.partial, buffer.subarray(0, n)]);
      const end = bytes.lastIndexOf(0x0a);
      this.partial = Buffer.from(bytes.subarray(end + 1));
      if (end >= 0) for (const line of bytes.subarray(0, end).toString("utf8").split("\n")) this.onLine(line);
    }
  }
}
