import type { Command } from "commander";
import type { LogsOptions } from "../actions/logs.js";
import type { CliContext } from "../context.js";

/** The log reader, imported only when the command runs. */
const actions = () => import("../actions/logs.js");

/** `openclaw logs`: read the gateway's log file. */
export function registerLogs(program: Command, ctx: CliContext): void {
  program
    .command("logs")
    .description("show the gateway's log (<stateDir>/logs/gateway.log and its rotated files)")
    .option("-f, --follow", "keep printing new lines as they are written, across rotations (Ctrl-C stops)")
    .option("--level <level>", "only this level and above: trace, debug, info, warn, error, fatal")
    .option("--since <when>", "only lines since a duration ago (30s, 10m, 2h, 7d) or a date (2024-05-01T12:00)")
    .option("-n, --lines <n>", "how many of the last matching lines to show first (default 200; 0 for all)")
    .option("--json", "print the JSON lines as stored (for jq)")
    .action(async (opts: LogsOptions) => (await actions()).runLogsCommand(ctx, opts));
}
