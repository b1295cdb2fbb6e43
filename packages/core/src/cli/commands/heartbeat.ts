import type { Command } from "commander";
import type { HeartbeatOptions } from "../actions/heartbeat.js";
import type { CliContext } from "../context.js";

/** The implementation (the control API client), imported only when the command runs. */
const actions = () => import("../actions/heartbeat.js");

/** `openclaw heartbeat now|status`: trigger or inspect the running gateway's heartbeat. */
export function registerHeartbeat(program: Command, ctx: CliContext): void {
  const heartbeat = program.command("heartbeat").description("the agents' periodic heartbeat turn (needs a running gateway)");
  const connection = (cmd: Command) =>
    cmd
      .option(
        "--url <url>",
        "control API URL (default: OPENCLAW_GATEWAY_URL, else ws://127.0.0.1:<port> with the running gateway's port from <stateDir>/gateway.json)",
      )
      .option("--token <token>", "control API token (default: gateway.auth.token, OPENCLAW_GATEWAY_TOKEN, else <stateDir>/gateway.token)")
      .option("--json", "print the gateway's answer as JSON");

  connection(
    heartbeat
      .command("now")
      .description("run one heartbeat now (ignores every and activeHours) and print how it ended")
      .option("--agent <id>", "the agent (default: the default agent)"),
  ).action(async (opts: HeartbeatOptions) => (await actions()).runHeartbeatNow(ctx, opts));

  connection(
    heartbeat.command("status", { isDefault: true }).description("show each agent's heartbeat: interval, target, last and next run"),
  ).action(async (opts: HeartbeatOptions) => (await actions()).showHeartbeatStatus(ctx, opts));
}
