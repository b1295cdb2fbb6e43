import path from "node:path";
import { pino } from "pino";
import type { SecretScrubber } from "../redaction/index.js";
import { formatLogRecord, type LogLevelName, parseLogLine } from "./format.js";
import { RotatingFile, type RotatingFileOptions } from "./rotating-file.js";

/** The live log file's name in `<stateDir>/logs/`. */
export const GATEWAY_LOG_FILE = "gateway.log";

/** `<stateDir>/logs/gateway.log`. */
export function gatewayLogPath(stateDir: string): string {
  return path.join(stateDir, "logs", GATEWAY_LOG_FILE);
}

export interface GatewayFileLoggerOptions extends Partial<Pick<RotatingFileOptions, "maxBytes" | "keep">> {
  stateDir: string;
  /** Lowest level written (file and console). Default "info". */
  level?: LogLevelName;
  /** Where lines are echoed for a person; default none. */
  console?: NodeJS.WritableStream;
  /**
   * How echoed lines look: "pretty" (time, coloured level; for a terminal) or "plain"
   * (`[gateway] warn: message`, what journald and scripts read). Default: pretty when `console` is a TTY.
   */
  consoleStyle?: "pretty" | "plain";
  /** Applied to every message before it is written anywhere; secrets it knows become `***`. */
  scrubber?: SecretScrubber;
  /** Default `Date.now`. */
  now?: () => number;
}

/** A gateway logger that also writes JSON lines to a rotating file; `close` flushes and closes it. */
export interface GatewayFileLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
  readonly file: string;
  close(): void;
}

/**
 * The gateway's structured log: one pino JSON object per line (`level`, `time` in ms, `pid`,
 * `msg`) appended to `<stateDir>/logs/gateway.log`, which rotates by size (default 10 MiB, 5 old
 * files kept), and the same events echoed to `console` as readable lines. Every message goes
 * through `scrubber` first, so a configured secret never reaches the file or the terminal.
 */
export function createGatewayFileLogger(options: GatewayFileLoggerOptions): GatewayFileLogger {
  const file = new RotatingFile({
    file: gatewayLogPath(options.stateDir),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.keep !== undefined ? { keep: options.keep } : {}),
  });
  const level = options.level ?? "info";
  const streams: pino.StreamEntry[] = [{ level, stream: file }];
  if (options.console) streams.push({ level, stream: consoleStream(options.console, options.consoleStyle) });
  const now = options.now ?? Date.now;
  const logger = pino({ level, base: { pid: process.pid }, timestamp: () => `,"time":${now()}` }, pino.multistream(streams));
  const scrub = (message: string) => (options.scrubber ? options.scrubber.text(message) : message);
  return {
    info: (message) => logger.info(scrub(message)),
    warn: (message) => logger.warn(scrub(message)),
    error: (message) => logger.error(scrub(message)),
    debug: (message) => logger.debug(scrub(message)),
    file: file.file,
    close: () => file.close(),
  };
}

/** A stream that turns pino's JSON lines back into lines for a person. */
function consoleStream(out: NodeJS.WritableStream, style?: "pretty" | "plain"): { write(line: string): void } {
  const pretty = style ? style === "pretty" : (out as NodeJS.WriteStream).isTTY === true;
  return {
    write(line: string) {
      const record = parseLogLine(line.trimEnd());
      if (!record) return;
      if (pretty) out.write(`${formatLogRecord(record, { color: true })}\n`);
      else {
        const mark = record.level >= 50 ? "error: " : record.level >= 40 ? "warn: " : "";
        out.write(`[gateway] ${mark}${record.msg}\n`);
      }
    },
  };
}
