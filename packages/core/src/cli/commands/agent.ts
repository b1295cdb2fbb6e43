import type { Command } from "commander";
import type { AgentCommandOptions } from "../actions/agent.js";
import type { CliContext } from "../context.js";

/** The implementation (the whole agent runtime), imported only when the command runs. */
const actions = () => import("../actions/agent.js");

/** `openclaw agent`: run one agent turn and stream the reply. */
export function registerAgent(program: Command, ctx: CliContext): void {
  program
    .command("agent")
    .description("run one agent turn and stream the reply to the terminal")
    .requiredOption("-m, --message <text>", "the message to send to the agent")
    .option("--local", "run the turn in this process (no gateway needed); default: send it to the running gateway")
    .option("--agent <id>", "which agent answers (default: the default agent)")
    .option("--session <key>", "session key (default: the agent's main session, agent:<id>:main)")
    .option("--json", "print every run event as one JSON object per line instead of text")
    .option(
      "--url <url>",
      "gateway URL when not local (default: OPENCLAW_GATEWAY_URL/PORT, else the running gateway's port from <stateDir>/gateway.json, else gateway.port)",
    )
    .option("--token <token>", "gateway token when not local (default: OPENCLAW_GATEWAY_TOKEN or <stateDir>/gateway.token)")
    .action(async (opts: AgentCommandOptions) => (await actions()).runAgentCommand(ctx, opts));
}
