import type { GatewayLogger } from "./types.js";

/** How many log lines the gateway keeps in memory for `logs.tail`. */
export const LOG_TAIL_LINES = 500;

/** One kept line. `ts` is ms since the epoch. */
export interface LogLine {
  ts: number;
  level: "info" | "warn" | "error";
  message: string;
}

/**
 * The gateway's recent log lines, newest last: a ring of `capacity` (default 500) lines. Feed it
 * the already-scrubbed logger's output (see `teeLogger`), so it never holds a configured secret.
 */
export class LogTail {
  private readonly lines: LogLine[] = [];

  constructor(
    private readonly capacity = LOG_TAIL_LINES,
    private readonly now: () => number = Date.now,
  ) {}

  push(level: LogLine["level"], message: string): void {
    this.lines.push({ ts: this.now(), level, message });
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  /** The last `n` lines (default and at most all kept), oldest first. */
  tail(n = this.capacity): LogLine[] {
    return n <= 0 ? [] : this.lines.slice(-n);
  }
}

/** `log` that also records every line into `tail`. */
export function teeLogger(log: GatewayLogger, tail: LogTail): GatewayLogger {
  const line = (level: LogLine["level"]) => (message: string) => {
    tail.push(level, message);
    log[level](message);
  };
  return { info: line("info"), warn: line("warn"), error: line("error") };
}
