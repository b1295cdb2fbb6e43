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

/** A logger that discards everything. */
export const silentLogger: GatewayLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
