// `openclaw sessions compact <key>`, loaded only when it runs: through the running gateway (the
// single writer of the session stores), or in this process with --local.
import { AgentRuntime, type CompactionOutcome } from "../../agent/index.js";
import { normalizeAgentId, resolveAgentId } from "../../agents/index.js";
import { describeCompaction } from "../../commands/index.js";
import type { CliContext } from "../context.js";
import { coreVersion } from "../version.js";

export interface CompactOptions {
  agent?: string;
  local?: boolean;
  url?: string;
  token?: string;
  json?: boolean;
}

type Answer = CompactionOutcome & { agentId: string; sessionKey: string };

/** The agent (`--agent`, else the configured default) and the full key ("main" -> agent:<agent>:main). */
async function target(ctx: CliContext, rawKey: string, opts: CompactOptions): Promise<{ agentId: string; sessionKey: string }> {
  const loaded = await ctx.loadConfig();
  const agentId = opts.agent ? normalizeAgentId(opts.agent) : resolveAgentId(loaded.config, undefined, loaded.path);
  const key = rawKey.trim().toLowerCase();
  return { agentId, sessionKey: key.includes(":") ? key : `agent:${agentId}:${key}` };
}

/** Compacts one session and prints what happened; exit code 1 when it is busy. */
export async function compactSession(ctx: CliContext, rawKey: string, opts: CompactOptions): Promise<void> {
  const where = await target(ctx, rawKey, opts);
  const answer = opts.local ? await compactLocally(ctx, where) : await compactThroughGateway(ctx, where, opts);
  if (opts.json) ctx.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
  else ctx.stdout.write(`${answer.sessionKey}: ${describeCompaction(answer)}\n`);
  if (answer.status === "busy") process.exitCode = 1;
}

async function compactThroughGateway(
  ctx: CliContext,
  where: { agentId: string; sessionKey: string },
  opts: CompactOptions,
): Promise<Answer> {
  const { connectToGateway } = await import("../../gateway/index.js");
  const client = await connectToGateway({
    paths: ctx.paths(),
    ...(opts.url ? { url: opts.url } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  try {
    return await client.request<Answer>("sessions.compact", where);
  } finally {
    await client.close();
  }
}

async function compactLocally(ctx: CliContext, where: { agentId: string; sessionKey: string }): Promise<Answer> {
  const loaded = await ctx.loadConfig();
  const runtime = new AgentRuntime({ config: loaded.config, paths: ctx.paths(), version: coreVersion() });
  try {
    return { ...where, ...(await runtime.compactSession(where.agentId, where.sessionKey)) };
  } finally {
    await runtime.close();
  }
}
