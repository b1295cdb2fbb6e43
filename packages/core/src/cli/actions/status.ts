// `openclaw status`, loaded only when it runs.
import { connectToGateway } from "../../gateway/index.js";
import { type ServiceStatus, serviceManagerFor } from "../../service/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";
import type { HeartbeatStatusEntry } from "../../scheduler/index.js";
import { describeServiceStatus } from "./service.js";
import { describeAge, formatDuration, type ChannelsPayload } from "./channels.js";
import { heartbeatLines } from "./heartbeat.js";

export interface StatusOptions {
  json?: boolean;
  url?: string;
  token?: string;
}

/** What the gateway's `status` method answers. */
export interface StatusPayload {
  version: string;
  pid: number;
  startedAt: number;
  uptimeMs: number;
  port: number;
  bind: string;
  host: string;
  accepting: boolean;
  agents: { id: string; default: boolean }[];
  channels: { channel: string; label: string; accounts: number; states: Record<string, number> }[];
  /** Cron jobs: how many, and the earliest next run (absent from gateways older than this CLI). */
  cron?: { jobs: number; enabled: number; nextRunAt?: number };
  /** The last failed runs, newest first (absent from gateways older than this CLI). */
  recentErrors?: RecentRunError[];
  /** Each agent's heartbeat (absent from gateways older than this CLI; empty when none runs). */
  heartbeat?: HeartbeatStatusEntry[];
}

/** One failed run as the gateway reports it; `message` is the detail the chat was not shown. */
export interface RecentRunError {
  at: number;
  runId: string;
  agentId: string;
  sessionKey: string;
  category: string;
  kind: string;
  message: string;
}

/** How many of the recent run errors the text output shows. */
const ERRORS_SHOWN = 5;

/**
 * Asks the running gateway for its status and prints it, with whether the gateway service is
 * installed and running; exits 1 with how to start the gateway when none runs (after the service
 * line, or `{ service }` with --json).
 */
export async function runStatusCommand(ctx: CliContext, opts: StatusOptions): Promise<void> {
  const service = await serviceStatusOf(ctx);
  let client: Awaited<ReturnType<typeof connectToGateway>>;
  try {
    client = await connectToGateway({
      paths: ctx.paths(),
      ...(opts.url ? { url: opts.url } : {}),
      ...(opts.token ? { token: opts.token } : {}),
    });
  } catch (err) {
    if (opts.json) writeJson(ctx.stdout, { service: service ?? null });
    else if (service) for (const line of describeServiceStatus(service)) writeLine(ctx.stdout, line);
    throw err;
  }
  try {
    const status = await client.request<StatusPayload>("status", undefined, { timeoutMs: 10_000 });
    const channels = await client.request<ChannelsPayload>("channels.status", undefined, { timeoutMs: 10_000 });
    if (opts.json) {
      writeJson(ctx.stdout, { gateway: status, channels: channels.channels, service: service ?? null });
      return;
    }
    const out = ctx.stdout;
    writeLine(
      out,
      `Gateway: running${status.accepting ? "" : " (shutting down)"} — version ${status.version}, pid ${status.pid}, up ${formatDuration(status.uptimeMs)}`,
    );
    writeLine(out, `Listening: ws://${status.host}:${status.port} (bind ${status.bind})`);
    if (service) for (const line of describeServiceStatus(service)) writeLine(out, line);
    writeLine(out, `Agents: ${status.agents.map((a) => (a.default ? `${a.id} (default)` : a.id)).join(", ")}`);
    if (status.cron) writeLine(out, describeCron(status.cron));
    if (status.heartbeat && status.heartbeat.length > 0) {
      writeLine(out, "Heartbeat:");
      for (const line of heartbeatLines(status.heartbeat)) writeLine(out, `  ${line}`);
    } else if (status.heartbeat) {
      writeLine(out, "Heartbeat: off");
    }
    writeRecentErrors(out, status.recentErrors ?? []);
    if (channels.channels.length === 0) {
      writeLine(out, "Channels: none configured (add one under channels.<id> in the config)");
      return;
    }
    writeLine(out, "Channels:");
    for (const channel of channels.channels) {
      const states = Object.entries(countStates(channel.accounts.map((a) => a.state)))
        .map(([state, n]) => `${n} ${state}`)
        .join(", ");
      writeLine(
        out,
        `  ${channel.channel} (${channel.label}): ${channel.accounts.length} account${channel.accounts.length === 1 ? "" : "s"} — ${states}`,
      );
      for (const account of channel.accounts) {
        if (account.state === "needs-login") {
          writeLine(
            out,
            `    ${account.accountId}: needs linking: run \`${account.loginCommand ?? `openclaw channels login ${channel.channel}`}\``,
          );
        } else if (account.state === "error" || account.state === "reconnecting") {
          writeLine(out, `    ${account.accountId}: ${account.state}: ${account.detail ?? account.lastError ?? "no detail"}`);
        } else if (account.lastInboundAt !== undefined) {
          writeLine(out, `    ${account.accountId}: last message ${describeAge(account.lastInboundAt)}`);
        }
      }
    }
  } finally {
    await client.close();
  }
}

/** The newest failed runs, with the detail the chat only got a short notice of. */
function writeRecentErrors(out: NodeJS.WritableStream, errors: RecentRunError[]): void {
  if (errors.length === 0) return;
  writeLine(
    out,
    `Recent run errors (${errors.length}, newest first${errors.length > ERRORS_SHOWN ? `; ${ERRORS_SHOWN} shown, all with --json` : ""}):`,
  );
  for (const e of errors.slice(0, ERRORS_SHOWN)) {
    writeLine(out, `  ${describeAge(e.at)}: agent ${e.agentId}, session ${e.sessionKey}: ${e.category} (${e.kind})`);
    for (const line of e.message.split("\n")) writeLine(out, `    ${line}`);
  }
}

/** `Cron: 2 jobs (1 enabled), next in 4m 10s`. */
function describeCron(cron: NonNullable<StatusPayload["cron"]>): string {
  if (cron.jobs === 0) return "Cron: no jobs (add one with `openclaw cron add`)";
  const next = cron.nextRunAt === undefined ? "nothing due" : `next in ${formatDuration(Math.max(0, cron.nextRunAt - Date.now()))}`;
  return `Cron: ${cron.jobs} job${cron.jobs === 1 ? "" : "s"} (${cron.enabled} enabled), ${next}`;
}

function countStates(states: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of states) out[s] = (out[s] ?? 0) + 1;
  return out;
}

/** The gateway service's status on this host; undefined where there is no service manager or it cannot be asked. */
async function serviceStatusOf(ctx: CliContext): Promise<ServiceStatus | undefined> {
  try {
    return await serviceManagerFor({ paths: ctx.paths(), env: process.env }).status();
  } catch {
    return undefined;
  }
}
