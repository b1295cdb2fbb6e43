import type { Command } from "commander";
import type { SetupOptions } from "../actions/setup.js";
import type { CliContext } from "../context.js";

/** The implementation (workspace templates, git, the state database), imported only on use. */
const actions = () => import("../actions/setup.js");

/** `openclaw setup`: create the config when missing and initialize the agent workspace. */
export function registerSetup(program: Command, ctx: CliContext): void {
  program
    .command("setup")
    .description("create the config file if it is missing and initialize the agent workspace")
    .option("--workspace <dir>", "workspace folder to initialize; saved as agents.defaults.workspace when setup creates the config")
    .option("--agent <id>", "initialize this agent's workspace (default: the default agent)")
    .option("--non-interactive", "never ask questions (setup asks none yet; accepted for scripts)")
    .option("--reset-workspace-state", "forget the workspace's recorded setup state and attestation first (after wiping it on purpose)")
    .action(async (opts: SetupOptions) => (await actions()).runSetup(ctx, opts));
}
