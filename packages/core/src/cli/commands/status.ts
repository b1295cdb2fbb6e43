import type { Command } from "commander";
import type { StatusOptions } from "../actions/status.js";
import type { CliContext } from "../context.js";

/** The implementation (the control API client), imported only when the command runs. */
const actions = () => import("../actions/status.js");

/** `openclaw status`: ask the running gateway how it is doing. */
export function registerStatus(program: Command, ctx: CliContext): void {
  program
    .command("status")
    .description("show the running gateway: version, uptime, address, agents and channel accounts")
    .option("--json", "print the gateway's answer as JSON")
    .option(
      "--url <url>",
      "control API URL (default: OPENCLAW_GATEWAY_URL, else ws://127.0.0.1:<port> with the running gateway's port from <stateDir>/gateway.json)",
    )
    .option("--token <token>", "control API token (default: gateway.auth.token, OPENCLAW_GATEWAY_TOKEN, else <stateDir>/gateway.token)")
    .action(async (opts: StatusOptions) => (await actions()).runStatusCommand(ctx, opts));
}
