import type { Command } from "commander";
import type { UpdateOptions } from "../actions/update.js";
import type { CliContext } from "../context.js";

/** The upgrade planner, imported only when the command runs. */
const actions = () => import("../actions/update.js");

/** `openclaw update`: compare with the newest release and upgrade in place. */
export function registerUpdate(program: Command, ctx: CliContext): void {
  program
    .command("update")
    .description(
      "check for a newer openclaw and print the upgrade steps (install, doctor --fix, service restart); config, state and plugins are kept",
    )
    .option("--yes", "run the steps instead of printing them")
    .action(async (opts: UpdateOptions) => (await actions()).runUpdateCommand(ctx, opts));
}
