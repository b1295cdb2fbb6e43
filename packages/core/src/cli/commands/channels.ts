import type { Command } from "commander";
import type { ChannelsStatusOptions } from "../actions/channels.js";
import type { CliContext } from "../context.js";

/** The implementation (the control API client), imported only when the command runs. */
const actions = () => import("../actions/channels.js");

/** `openclaw channels status`: every channel account as the running gateway sees it. */
export function registerChannels(program: Command, ctx: CliContext): void {
  const channels = program.command("channels").description("inspect the channel accounts of the running gateway");
  channels
    .command("status")
    .description("show each account's state (connected, reconnecting, error, ...), identity, last error, restarts and last traffic")
    .option("--json", "print the gateway's answer as JSON")
    .option(
      "--url <url>",
      "control API URL (default: OPENCLAW_GATEWAY_URL, else ws://127.0.0.1:<port> with the running gateway's port from <stateDir>/gateway.json)",
    )
    .option("--token <token>", "control API token (default: gateway.auth.token, OPENCLAW_GATEWAY_TOKEN, else <stateDir>/gateway.token)")
    .action(async (opts: ChannelsStatusOptions) => (await actions()).runChannelsStatusCommand(ctx, opts));
}
