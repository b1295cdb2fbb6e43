import type { Command } from "commander";
import type { GatewayCommandOptions } from "../actions/gateway.js";
import type { CliContext } from "../context.js";

/** The implementation (the whole gateway), imported only when the command runs. */
const actions = () => import("../actions/gateway.js");

/** `openclaw gateway`: run the gateway in the foreground. */
export function registerGateway(program: Command, ctx: CliContext): void {
  program
    .command("gateway")
    .description("run the gateway in the foreground: channel accounts, agents and the control API (stop with Ctrl-C or SIGTERM)")
    .option("--port <n>", "control API port (default: OPENCLAW_GATEWAY_PORT, gateway.port, else 18789; 0 picks a free port)")
    .option("--bind <mode>", '"loopback" (127.0.0.1, the default) or "lan" (all interfaces; needs token auth)')
    .option(
      "--token <token>",
      "control API token (default: gateway.auth.token, OPENCLAW_GATEWAY_TOKEN, else generated into <stateDir>/gateway.token)",
    )
    .action(async (opts: GatewayCommandOptions) => (await actions()).runGatewayCommand(ctx, opts));
}
