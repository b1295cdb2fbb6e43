import type { SecretScrubber } from "../redaction/index.js";
import type { GatewayLogger } from "./types.js";

/** One line per event on `stream` (default stderr): `[gateway] ...`, with `warn:`/`error:` marks. */
export function createStreamLogger(stream: NodeJS.WritableStream = process.stderr): GatewayLogger {
  const write = (mark: string, message: string) => stream.write(`[gateway] ${mark}${message}\n`);
  return {
    info: (message) => write("", message),
    warn: (message) => write("warn: ", message),
    error: (message) => write("error: ", message),
  };
}

/**
 * `log` with every line passed through `scrubber` first: configured secrets and credentials in
 * URLs, headers and bearer tokens never reach it, whoever wrote the line (core or a plugin).
 */
export function scrubbingLogger(log: GatewayLogger, scrubber: SecretScrubber): GatewayLogger {
  return {
    info: (message) => log.info(scrubber.text(message)),
    warn: (message) => log.warn(scrubber.text(message)),
    error: (message) => log.error(scrubber.text(message)),
  };
}

/** A logger that discards everything. */
export const silentLogger: GatewayLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
