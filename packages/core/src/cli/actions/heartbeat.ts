// `openclaw heartbeat now|status`, loaded only when it runs.
import { connectToGateway } from "../../gateway/index.js";
import type { HeartbeatRunEvent, HeartbeatStatusEntry } from "../../scheduler/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";
import { describeAge, formatDuration } from "./channels.js";

export interface HeartbeatOptions {
  agent?: string;
  json?: boolean;
  url?: string;
  token?: string;
}

/** What each heartbeat status means to a person. */
const STATUS_TEXT: Record<HeartbeatRunEvent["status"], string> = {
  delivered: "the reply was delivered",
  ack: "nothing to report (HEARTBEAT_OK): nothing was sent",
  "no-target": "there was a reply but no target to deliver it to (heartbeat.target)",
  failed: "the run or its delivery failed; see the gateway log",
  "skipped-busy": "skipped: a heartbeat of this agent was already waiting or running",
};

async function withGateway<T>(
  ctx: CliContext,
  opts: HeartbeatOptions,
  fn: (client: Awaited<ReturnType<typeof connectToGateway>>) => Promise<T>,
) {
  const client = await connectToGateway({
    paths: ctx.paths(),
    ...(opts.url ? { url: opts.url } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** `openclaw heartbeat now`: asks the gateway for one heartbeat and prints how it ended; exit 1 when it failed. */
export async function runHeartbeatNow(ctx: CliContext, opts: HeartbeatOptions): Promise<void> {
  const event = await withGateway(ctx, opts, (client) =>
    // No timeout: the run waits for a busy session and for the model.
    client.request<HeartbeatRunEvent>("heartbeat.now", opts.agent ? { agentId: opts.agent } : {}),
  );
  if (opts.json) writeJson(ctx.stdout, event);
  else
    writeLine(
      ctx.stdout,
      `Heartbeat of agent ${event.agentId}: ${STATUS_TEXT[event.status]} (${((event.finishedAt - event.startedAt) / 1000).toFixed(1)} s)`,
    );
  if (event.status === "failed") process.exitCode = 1;
}

/** One line per agent with a heartbeat. */
export function heartbeatLines(entries: readonly HeartbeatStatusEntry[], now = Date.now()): string[] {
  return entries.map((h) => {
    const window = h.activeHours
      ? `, active ${h.activeHours.start}-${h.activeHours.end}${h.activeHours.timezone ? ` ${h.activeHours.timezone}` : ""}`
      : "";
    const last = h.lastRunAt === null ? "never ran" : `last ${describeAge(h.lastRunAt, now)} (${h.lastStatus ?? "?"})`;
    const next = h.running
      ? "running now"
      : h.nextRunAt === null
        ? "not scheduled"
        : `next in ${formatDuration(Math.max(0, h.nextRunAt - now))}`;
    return `${h.agentId}: every ${h.every} -> ${h.target}${window}; ${last}; ${next}`;
  });
}

/** `openclaw heartbeat status`. */
export async function showHeartbeatStatus(ctx: CliContext, opts: HeartbeatOptions): Promise<void> {
  const { heartbeat } = await withGateway(ctx, opts, (client) =>
    client.request<{ heartbeat: HeartbeatStatusEntry[] }>("heartbeat.status", undefined, { timeoutMs: 10_000 }),
  );
  if (opts.json) return writeJson(ctx.stdout, heartbeat);
  if (heartbeat.length === 0) return writeLine(ctx.stdout, 'Heartbeat: off (set agents.defaults.heartbeat.every, e.g. "30m")');
  writeLine(ctx.stdout, "Heartbeat:");
  for (const line of heartbeatLines(heartbeat)) writeLine(ctx.stdout, `  ${line}`);
}
