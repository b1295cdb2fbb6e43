// `openclaw agent`, loaded only when it runs.
import { AgentRuntime, type AgentEvent } from "../../agent/index.js";
import { UserError } from "../../config/index.js";
import type { CliContext } from "../context.js";
import { coreVersion } from "../version.js";

export interface AgentCommandOptions {
  message: string;
  local?: boolean;
  agent?: string;
  session?: string;
  json?: boolean;
}

function describeArgs(args: unknown): string {
  const text = typeof args === "string" ? args : JSON.stringify(args);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

/** Runs one turn in-process; text streams to stdout, tool activity to stderr. Ctrl-C aborts the run. */
export async function runAgentCommand(ctx: CliContext, opts: AgentCommandOptions): Promise<void> {
  if (!opts.local) {
    throw new UserError(
      "openclaw agent without --local sends the turn to a running gateway, which this version does not ship yet. Run it in this process with --local.",
      2,
    );
  }
  const loaded = await ctx.loadConfig();
  const runtime = new AgentRuntime({ config: loaded.config, paths: ctx.paths(), version: coreVersion() });
  const controller = new AbortController();
  const onSigint = () => controller.abort(new DOMException("interrupted", "AbortError"));
  process.once("SIGINT", onSigint);
  let wroteText = false;
  let lineOpen = false;
  const onEvent = (event: AgentEvent) => {
    if (opts.json) {
      ctx.stdout.write(`${JSON.stringify(event)}\n`);
      return;
    }
    switch (event.type) {
      case "text_delta":
        ctx.stdout.write(event.text);
        wroteText = true;
        lineOpen = !event.text.endsWith("\n");
        break;
      case "text_end":
        if (lineOpen) ctx.stdout.write("\n");
        lineOpen = false;
        break;
      case "tool_start":
        ctx.stderr.write(`[tool] ${event.name} ${describeArgs(event.args)}\n`);
        break;
      case "tool_end":
        if (event.isError) ctx.stderr.write(`[tool] ${event.name} failed: ${event.result.split("\n")[0]}\n`);
        break;
      case "model":
        if (event.attempt > 0) ctx.stderr.write(`[model] answering with ${event.ref} (fallback)\n`);
        break;
      case "final":
        // Replies that were not streamed (notices, errors, NO_REPLY) still reach the terminal.
        if (!wroteText && event.text) ctx.stdout.write(`${event.text}\n`);
        if (event.silent) ctx.stderr.write("[silent] the agent chose not to reply (NO_REPLY)\n");
        break;
      case "error":
        ctx.stderr.write(`[error] ${event.kind}: ${event.message.split("\n")[0]}\n`);
        break;
      default:
        break;
    }
  };
  try {
    const result = await runtime.runTurn({
      message: opts.message,
      ...(opts.agent ? { agentId: opts.agent } : {}),
      ...(opts.session ? { sessionKey: opts.session } : {}),
      signal: controller.signal,
      onEvent,
    });
    if (!opts.json && lineOpen) ctx.stdout.write("\n");
    if (result.status === "aborted") process.exitCode = 130;
    else if (result.status !== "ok") process.exitCode = 1;
  } finally {
    process.off("SIGINT", onSigint);
    await runtime.close();
  }
}
