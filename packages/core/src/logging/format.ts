/** One line of the gateway's log file, as pino writes it. */
export interface LogRecord {
  /** pino's number: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal. */
  level: number;
  /** Milliseconds since the epoch. */
  time: number;
  msg: string;
  pid?: number;
  [key: string]: unknown;
}

/** Level names in order, and pino's number for each. */
export const LOG_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LogLevelName = keyof typeof LOG_LEVELS;

/** The name of a pino level number (`30` → "info"); numbers between levels take the one below. */
export function levelName(level: number): LogLevelName {
  let name: LogLevelName = "trace";
  for (const [n, v] of Object.entries(LOG_LEVELS) as [LogLevelName, number][]) if (level >= v) name = n;
  return name;
}

/** A line of the log file as a record, or undefined when it is not one (a torn or foreign line). */
export function parseLogLine(line: string): LogRecord | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(line) as Partial<LogRecord>;
    if (typeof value.level !== "number" || typeof value.time !== "number" || typeof value.msg !== "string") return undefined;
    return value as LogRecord;
  } catch {
    return undefined;
  }
}

const COLORS: Record<LogLevelName, string> = {
  trace: "\x1b[90m",
  debug: "\x1b[36m",
  info: "\x1b[32m",
  warn: "\x1b[33m",
  error: "\x1b[31m",
  fatal: "\x1b[35m",
};
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";

/**
 * A record as one readable line: `2024-05-01 12:00:03.120 WARN  message` in local time; with
 * `color`, the level is coloured (red errors, yellow warnings) and the time dimmed.
 */
export function formatLogRecord(record: LogRecord, options: { color?: boolean } = {}): string {
  const d = new Date(record.time);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const time = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
  const name = levelName(record.level);
  const label = name.toUpperCase().padEnd(5);
  if (!options.color) return `${time} ${label} ${record.msg}`;
  return `${DIM}${time}${RESET} ${COLORS[name]}${label}${RESET} ${record.msg}`;
}
