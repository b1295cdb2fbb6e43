import type { Command } from "commander";
import type { ContextOptions } from "../actions/context.js";
import type { CliContext } from "../context.js";

/** The implementation (workspace files, the config module), imported only when the command runs. */
const actions = () => import("../actions/context.js");

/**
 * `openclaw context`: the bootstrap files exactly as the model receives them.
 * Room is left for a later `--detail` (tool schema sizes): it would add sections after the file
 * table and a `tools` key to the JSON, without changing what is printed today.
 */
export function registerContext(program: Command, ctx: CliContext): void {
  program
    .command("context")
    .description("show the project context (workspace bootstrap files) the model receives, with sizes")
    .option("--agent <id>", "agent whose workspace to read (default: the agent named in --session, else the default agent)")
    .option("--session <key>", "session key deciding which files are given (default: agent:<id>:main, the main session)")
    .option("--json", "print JSON: { files, totals, text, ... }")
    .action(async (opts: ContextOptions) => (await actions()).showContext(ctx, opts));
}
