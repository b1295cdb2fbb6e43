// `openclaw channels status`, loaded only when it runs (login/logout: ./channel-login.ts).
import { connectToGateway, type ChannelStatusReport } from "../../gateway/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";

export interface ChannelsStatusOptions {
  json?: boolean;
  url?: string;
  token?: string;
}

/** What the gateway's `channels.status` method answers. */
export interface ChannelsPayload {
  channels: ChannelStatusReport[];
}

/** `1h 2m`, `3m 4s`, `5s`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

/** `12s ago`, or `never`. */
export function describeAge(at: number | undefined, now = Date.now()): string {
  return at === undefined ? "never" : `${formatDuration(now - at)} ago`;
}

/**
 * The lines of `openclaw channels status`: per channel, each account's state, identity, restarts
 * and traffic, then its details (`key: value`, one per line) and what is wrong, indented.
 */
export function formatChannelsStatus(payload: ChannelsPayload, now = Date.now()): string[] {
  if (payload.channels.length === 0) {
    return ["No channels are configured. Add one under channels.<id> in the config and restart the gateway."];
  }
  const lines: string[] = [];
  for (const channel of payload.channels) {
    lines.push(`${channel.label} (${channel.channel})`);
    for (const a of channel.accounts) {
      const who = a.identity ? ` as ${a.identity}` : "";
      const name = `  ${a.accountId}${a.name ? ` (${a.name})` : ""}`;
      if (a.state === "needs-login") {
        lines.push(`${name}: needs linking: run \`${a.loginCommand ?? `openclaw channels login ${channel.channel}`}\``);
        if (a.detail) lines.push(`    ${a.detail}`);
        continue;
      }
      lines.push(
        `${name}: ${a.state}${who}; restarts ${a.restarts}; last in ${describeAge(a.lastInboundAt, now)}; last out ${describeAge(a.lastOutboundAt, now)}`,
      );
      for (const [key, value] of Object.entries(a.details ?? {})) lines.push(`    ${key}: ${value}`);
      if (a.detail) lines.push(`    ${a.detail}`);
      else if (a.lastError) lines.push(`    last error: ${a.lastError}`);
    }
  }
  return lines;
}

/** Prints every account of every configured channel as the running gateway reports it. */
export async function runChannelsStatusCommand(ctx: CliContext, opts: ChannelsStatusOptions): Promise<void> {
  const client = await connectToGateway({
    paths: ctx.paths(),
    ...(opts.url ? { url: opts.url } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  try {
    const payload = await client.request<ChannelsPayload>("channels.status", undefined, { timeoutMs: 10_000 });
    if (opts.json) {
      writeJson(ctx.stdout, payload);
      return;
    }
    for (const line of formatChannelsStatus(payload)) writeLine(ctx.stdout, line);
  } finally {
    await client.close();
  }
}
