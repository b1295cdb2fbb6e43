import type { Command } from "commander";
import type { GatewayCommandOptions } from "../actions/gateway.js";
import type { ServiceVerb } from "../actions/service.js";
import type { CliContext } from "../context.js";

/** The implementation (the whole gateway), imported only when the command runs. */
const actions = () => import("../actions/gateway.js");
/** The service manager (systemd / launchd), imported only when a service subcommand runs. */
const serviceActions = () => import("../actions/service.js");

const SERVICE_VERBS: [ServiceVerb, string][] = [
  ["install", "install the gateway as a user service (systemd on Linux, launchd on macOS) and start it; restarts it on failure"],
  ["uninstall", "stop the gateway service and remove its unit"],
  ["start", "start the installed gateway service"],
  ["stop", "stop the gateway service (it starts again at the next login or boot)"],
  ["restart", "restart the gateway service (after an update or a config change that needs it)"],
  ["status", "show whether the gateway service is installed and running"],
];

/** `openclaw gateway`: run the gateway in the foreground; `openclaw gateway install|...|status`: the service. */
export function registerGateway(program: Command, ctx: CliContext): void {
  const gateway = program
    .command("gateway")
    .description("run the gateway in the foreground: channel accounts, agents and the control API (stop with Ctrl-C or SIGTERM)")
    .option("--port <n>", "control API port (default: OPENCLAW_GATEWAY_PORT, gateway.port, else 18789; 0 picks a free port)")
    .option("--bind <mode>", '"loopback" (127.0.0.1, the default) or "lan" (all interfaces; needs token auth)')
    .option(
      "--token <token>",
      "control API token (default: gateway.auth.token, OPENCLAW_GATEWAY_TOKEN, else generated into <stateDir>/gateway.token)",
    )
    .action(async (opts: GatewayCommandOptions) => (await actions()).runGatewayCommand(ctx, opts));
  for (const [verb, description] of SERVICE_VERBS) {
    const sub = gateway.command(verb).description(description);
    if (verb === "status") sub.option("--json", "print the status as JSON");
    sub.action(async (opts: { json?: boolean }) => (await serviceActions()).runServiceCommand(ctx, verb, opts));
  }
}
