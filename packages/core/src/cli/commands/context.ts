import type { Command } from "commander";
import type { ContextOptions } from "../actions/context.js";
import type { CliContext } from "../context.js";

/** The implementation (workspace files, the config module), imported only when the command runs. */
const actions = () => import("../actions/context.js");

/** `openclaw context`: the bootstrap files exactly as the model receives them; `--detail` adds tool schema sizes. */
export function registerContext(program: Command, ctx: CliContext): void {
  program
    .command("context")
    .description("show the project context (workspace bootstrap files) the model receives, with sizes")
    .option("--agent <id>", "agent whose workspace to read (default: the agent named in --session, else the default agent)")
    .option("--session <key>", "session key deciding which files are given (default: agent:<id>:main, the main session)")
    .option("--heartbeat", "show what a heartbeat run gets (with HEARTBEAT.md, which no other run sees)")
    .option("--detail", "also list every tool the session gets with the size of its schema, heaviest first (tools cost context too)")
    .option("--json", "print JSON: { files, totals, text, ... } (and tools with --detail)")
    .action(async (opts: ContextOptions) => (await actions()).showContext(ctx, opts));
}
