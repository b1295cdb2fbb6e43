// The gateway's structured log: pino JSON lines in a size-rotating file, and reading them back.
export { formatLogRecord, LOG_LEVELS, type LogLevelName, type LogRecord, levelName, parseLogLine } from "./format.js";
export {
  createGatewayFileLogger,
  GATEWAY_LOG_FILE,
  type GatewayFileLogger,
  type GatewayFileLoggerOptions,
  gatewayLogPath,
} from "./gateway-logger.js";
export { type LogFilter, LogFollower, logFilesOldestFirst, matchesFilter, parseLevel, parseSince, readLogRecords } from "./read.js";
export { DEFAULT_LOG_KEEP, DEFAULT_LOG_MAX_BYTES, RotatingFile, type RotatingFileOptions } from "./rotating-file.js";
