// `openclaw agent`, loaded only when it runs.
import { AgentRuntime, type AgentEvent } from "../../agent/index.js";
import type { CliContext } from "../context.js";
import { coreVersion } from "../version.js";

export interface AgentCommandOptions {
  message: string;
  local?: boolean;
  url?: string;
  token?: string;
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
  if (!opts.local) return runThroughGateway(ctx, opts);
  const loaded = await ctx.loadConfig();
  const runtime = new AgentRuntime({ config: loaded.config, paths: ctx.paths(), version: coreVersion() });
  const controller = new AbortController();
  const onSigint = () => controller.abort(new DOMException("interrupted", "AbortError"));
  process.once("SIGINT", onSigint);
  const { onEvent, finish } = terminalPrinter(ctx, opts);
  try {
    const result = await runtime.runTurn({
      message: opts.message,
      ...(opts.agent ? { agentId: opts.agent } : {}),
      ...(opts.session ? { sessionKey: opts.session } : {}),
      signal: controller.signal,
      onEvent,
    });
    finish();
    if (result.status === "aborted") process.exitCode = 130;
    else if (result.status !== "ok") process.exitCode = 1;
  } finally {
    process.off("SIGINT", onSigint);
    await runtime.close();
  }
}

/** Sends the turn to the running gateway (`agent` method) and streams its events back. */
async function runThroughGateway(ctx: CliContext, opts: AgentCommandOptions): Promise<void> {
  const { connectToGateway } = await import("../../gateway/index.js");
  const client = await connectToGateway({
    paths: ctx.paths(),
    ...(opts.url ? { url: opts.url } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  const { onEvent, finish } = terminalPrinter(ctx, opts);
  try {
    const ended = new Promise<AgentEvent & { type: "run_end" }>((resolve, reject) => {
      let runId: string | undefined;
      const early: { runId: string; event: AgentEvent }[] = [];
      const handle = (p: { runId: string; event: AgentEvent }) => {
        onEvent(p.event);
        if (p.event.type === "run_end") resolve(p.event);
      };
      client.onEvent((frame) => {
        if (frame.event !== "agent") return;
        const payload = frame.payload as { runId: string; event: AgentEvent };
        if (runId === undefined) early.push(payload);
        else if (payload.runId === runId) handle(payload);
      });
      client
        .request<{ runId: string }>("agent", {
          message: opts.message,
          ...(opts.agent ? { agentId: opts.agent } : {}),
          ...(opts.session ? { sessionKey: opts.session } : {}),
        })
        .then((res) => {
          runId = res.runId;
          for (const p of early.splice(0)) if (p.runId === runId) handle(p);
        }, reject);
    });
    const onSigint = () =>
      void client.request("chat.abort", { ...(opts.session ? { sessionKey: opts.session } : {}) }).catch(() => undefined);
    process.once("SIGINT", onSigint);
    const end = await ended.finally(() => process.off("SIGINT", onSigint));
    finish();
    if (end.status === "aborted") process.exitCode = 130;
    else if (end.status !== "ok") process.exitCode = 1;
  } finally {
    await client.close();
  }
}

/** Prints run events: text to stdout as it streams, tool activity and errors to stderr; or JSON lines. */
function terminalPrinter(ctx: CliContext, opts: AgentCommandOptions): { onEvent: (event: AgentEvent) => void; finish: () => void } {
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
      case "compaction":
        ctx.stderr.write(`[compaction] ${event.reason}: about ${event.tokensBefore} -> ${event.tokensAfter} tokens\n`);
        break;
      default:
        break;
    }
  };
  return {
    onEvent,
    finish: () => {
      if (!opts.json && lineOpen) ctx.stdout.write("\n");
    },
  };
}
