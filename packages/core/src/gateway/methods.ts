import { z } from "zod";
import { listAgentIds, resolveDefaultAgentId } from "../agents/index.js";
import type { AgentRuntime } from "../agent/index.js";
import { getAtPath, parseConfigPath, type OpenClawConfig } from "../config/index.js";
import type { ControlRuns } from "./control-runs.js";
import { compactionMethods } from "./methods-compaction.js";
import type { MethodHandler } from "./control-server.js";
import { ControlError } from "./protocol.js";
import type { SecretScrubber } from "../redaction/index.js";
import { resolveSessionTarget } from "./session-target.js";
import type { ChannelStatusReport, GatewayBind } from "./types.js";

/** What the method handlers read from the running gateway. */
export interface MethodDeps {
  runtime: AgentRuntime;
  config: OpenClawConfig;
  runs: ControlRuns;
  /** Redacts answers: config secrets by key and value, configured secrets in error texts. */
  scrubber: SecretScrubber;
  channels(): ChannelStatusReport[];
  info(): { version: string; startedAt: number; port: number; bind: GatewayBind; host: string };
  /** False once shutdown began. */
  accepting(): boolean;
}

const MAX_HISTORY = 1000;
const DEFAULT_HISTORY = 100;

const turnParams = z.object({
  message: z.string().min(1, "message must not be empty"),
  agentId: z.string().min(1).optional(),
  sessionKey: z.string().min(1).optional(),
});
const abortParams = z.object({
  runId: z.string().min(1).optional(),
  sessionKey: z.string().min(1).optional(),
  agentId: z.string().min(1).optional(),
});
const listParams = z.object({ agentId: z.string().min(1).optional() });
const historyParams = z.object({
  sessionKey: z.string().min(1),
  agentId: z.string().min(1).optional(),
  limit: z.int().min(1).max(MAX_HISTORY).optional(),
});
const configParams = z.object({ path: z.string().min(1).optional() });

/** Validates a method's params; a mismatch is an `invalid_params` error naming the method. */
export function parse<T extends z.ZodType>(schema: T, params: unknown, method: string): z.output<T> {
  const result = schema.safeParse(params ?? {});
  if (!result.success) throw new ControlError("invalid_params", `${method}: ${z.prettifyError(result.error).replace(/\n/g, "; ")}`);
  return result.data;
}

/** One summary line per channel for `status`. */
function channelSummary(channels: ChannelStatusReport[]) {
  return channels.map((c) => {
    const states: Record<string, number> = {};
    for (const a of c.accounts) states[a.state] = (states[a.state] ?? 0) + 1;
    return { channel: c.channel, label: c.label, accounts: c.accounts.length, states };
  });
}

/** The method table of the control API (`connect` is handled by the server itself). */
export function createMethods(deps: MethodDeps): Record<string, MethodHandler> {
  const { runtime, runs } = deps;
  return {
    health: () => ({ ok: true, uptimeMs: Date.now() - deps.info().startedAt, accepting: deps.accepting() }),

    status: () => {
      const info = deps.info();
      const defaultAgent = resolveDefaultAgentId(deps.config);
      return {
        version: info.version,
        pid: process.pid,
        startedAt: info.startedAt,
        uptimeMs: Date.now() - info.startedAt,
        port: info.port,
        bind: info.bind,
        host: info.host,
        accepting: deps.accepting(),
        agents: listAgentIds(deps.config).map((id) => ({ id, default: id === defaultAgent })),
        channels: channelSummary(deps.channels()),
        recentErrors: runtime.recentErrors().map((e) => ({ ...e, message: deps.scrubber.text(e.message) })),
      };
    },

    agent: (params, connection) => runs.startStreaming(parse(turnParams, params, "agent"), connection),

    "chat.send": (params) => runs.send(parse(turnParams, params, "chat.send")),

    "chat.abort": (params) => runs.abort(parse(abortParams, params, "chat.abort")),

    "sessions.list": (params) => {
      const { agentId: requested } = parse(listParams, params, "sessions.list");
      const { agentId } = resolveSessionTarget(runtime, requested ? { agentId: requested } : {});
      const sessions = runtime
        .store(agentId)
        .listSessions()
        .map((s) => ({
          key: s.key,
          sessionId: s.sessionId,
          updatedAt: s.updatedAt,
          chatType: s.chatType ?? null,
          channel: typeof s.entry.channel === "string" ? s.entry.channel : null,
          displayName: typeof s.entry.displayName === "string" ? s.entry.displayName : null,
          eventCount: s.eventCount,
        }));
      return { agentId, sessions };
    },

    "sessions.history": (params) => {
      const p = parse(historyParams, params, "sessions.history");
      const { agentId, sessionKey } = resolveSessionTarget(runtime, p);
      const store = runtime.store(agentId);
      const entry = store.getEntry(sessionKey);
      if (!entry) throw new ControlError("not_found", `no session "${sessionKey}" for agent "${agentId}"`);
      const events = store.readTail(entry.sessionId, p.limit ?? DEFAULT_HISTORY);
      return { agentId, sessionKey, sessionId: entry.sessionId, total: store.countEvents(entry.sessionId), events };
    },

    ...compactionMethods(runtime),

    // Account details and last errors may quote a platform's answer (URLs, tokens).
    "channels.status": () => ({ channels: deps.scrubber.value(deps.channels()) }),

    "config.get": (params) => {
      const { path } = parse(configParams, params, "config.get");
      const redacted = deps.scrubber.value(deps.config) as unknown;
      if (!path) return { config: redacted };
      const value = getAtPath(redacted, parseConfigPath(path));
      if (value === undefined) throw new ControlError("not_found", `config.get: nothing is set at "${path}"`);
      return { path, value };
    },
  };
}
