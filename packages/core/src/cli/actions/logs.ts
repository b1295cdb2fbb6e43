// `openclaw logs`, loaded only when it runs.
import { UserError } from "../../config/paths.js";
import {
  formatLogRecord,
  gatewayLogPath,
  type LogFilter,
  LogFollower,
  type LogRecord,
  logFilesOldestFirst,
  matchesFilter,
  parseLevel,
  parseLogLine,
  parseSince,
  readLogRecords,
} from "../../logging/index.js";
import type { CliContext } from "../context.js";
import { writeLine } from "../output.js";

export interface LogsOptions {
  follow?: boolean;
  level?: string;
  since?: string;
  lines?: string;
  json?: boolean;
}

/** How many matching lines are shown before following, unless --lines says otherwise. */
const DEFAULT_LINES = 200;

/**
 * Prints the last matching records of the gateway's log (oldest first), readable (coloured on a
 * terminal) or as stored with --json; with --follow, keeps printing new ones until SIGINT/SIGTERM
 * or `signal` aborts. Exits 1 with where the log would be when there is none and not following.
 */
export async function runLogsCommand(ctx: CliContext, opts: LogsOptions, signal?: AbortSignal): Promise<void> {
  const filter: LogFilter = {
    ...(opts.level !== undefined ? { level: parseLevel(opts.level) } : {}),
    ...(opts.since !== undefined ? { since: parseSince(opts.since) } : {}),
  };
  const count = opts.lines === undefined ? DEFAULT_LINES : Number(opts.lines);
  if (!Number.isInteger(count) || count < 0) throw new UserError(`--lines "${opts.lines}" is not a whole number (0 shows every line).`, 2);
  const file = gatewayLogPath(ctx.paths().stateDir);
  if (!opts.follow && logFilesOldestFirst(file).length === 0) {
    throw new UserError(`No gateway log yet at ${file}; it is written while the gateway runs (\`openclaw gateway\` or the service).`);
  }
  const color = (ctx.stdout as NodeJS.WriteStream).isTTY === true && !opts.json;
  const print = (record: LogRecord, line: string) => writeLine(ctx.stdout, opts.json ? line : formatLogRecord(record, { color }));
  // Following: open the live file first and print what it held then, so nothing written in between is lost.
  const follower = opts.follow
    ? new LogFollower(file, (line) => {
        const record = parseLogLine(line);
        if (record && matchesFilter(record, filter)) print(record, line);
      })
    : undefined;
  const records = readLogRecords(file, filter, follower?.readHead());
  for (const { record, line } of count === 0 ? records : records.slice(-count)) print(record, line);
  if (!follower) return;

  follower.start();
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    signal?.addEventListener("abort", done, { once: true });
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  follower.poll();
  follower.stop();
}
