import type { Command } from "commander";
import type { DoctorOptions } from "../actions/doctor.js";
import type { CliContext } from "../context.js";

/** The implementation (every doctor step, SQLite, the config module), imported when doctor runs. */
const actions = () => import("../actions/doctor.js");

export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command("doctor")
    .description("check config and state; with --fix, migrate retired config keys (keeping a backup) and repair what is safe")
    .option("--fix", "apply the changes (writes a backup of the config first)")
    .option("--non-interactive", "never prompt; without --fix only report")
    .option("--json", "print the report as JSON")
    .action(async (opts: DoctorOptions) => (await actions()).runDoctorCommand(ctx, opts));
}
