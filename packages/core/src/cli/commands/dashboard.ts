import type { Command } from "commander";
import type { CliContext } from "../context.js";

/** The implementation, imported only when the command runs. */
const actions = () => import("../actions/dashboard.js");

/** `openclaw dashboard`: print the link that opens the Control UI signed in. */
export function registerDashboard(program: Command, ctx: CliContext): void {
  program
    .command("dashboard")
    .description("print the link that opens the Control UI in a browser, already signed in with the gateway token")
    .option("--json", "print {url, link, running} as JSON")
    .action(async (opts: { json?: boolean }) => (await actions()).runDashboardCommand(ctx, opts));
}
