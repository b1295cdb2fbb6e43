import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";
import { z } from "zod";
import { listAgentIds, resolveDefaultAgentId } from "../agents/index.js";
import type { AgentRuntime } from "../agent/index.js";
import { getAtPath, parseConfigPath, type OpenClawConfig, type OpenClawPaths } from "../config/index.js";
import type { StateDb } from "../state/index.js";
import type { ControlRuns } from "./control-runs.js";
import type { MethodHandler } from "./control-server.js";
import { LOG_TAIL_LINES, type LogTail } from "./log-tail.js";
import { parseParams as parse } from "./method-params.js";
import { configMethods } from "./methods-config.js";
import { doctorMethods } from "./methods-doctor.js";
import { pairingMethods } from "./methods-pairing.js";
import { sessionMethods } from "./methods-sessions.js";
import { ControlError } from "./protocol.js";
import type { SecretScrubber } from "../redaction/index.js";
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
  paths: OpenClawPaths;
  env: NodeJS.ProcessEnv;
  /** The channel definitions of the loaded plugins (config validation). */
  channelDefinitions: readonly ChannelConfigDefinition[];
  /** The shared state database (pairing). */
  stateDb: StateDb;
  /** The gateway's recent (scrubbed) log lines. */
  logTail: LogTail;
}

const turnParams = z.object({
  message: z.string().min(1, "message must not be empty"),
  agentId: z.string().min(1).optional(),
  sessionKey: z.string().min(1).optional(),
  webchat: z.object({ clientId: z.string().min(1) }).optional(),
});
const abortParams = z.object({
  runId: z.string().min(1).optional(),
  sessionKey: z.string().min(1).optional(),
  agentId: z.string().min(1).optional(),
});
const configParams = z.object({ path: z.string().min(1).optional() });
const logsParams = z.object({ lines: z.int().min(1).max(LOG_TAIL_LINES).optional() });

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

    ...sessionMethods(runtime),
    ...pairingMethods(deps.stateDb),
    ...configMethods({ paths: deps.paths, env: deps.env, channels: deps.channelDefinitions, scrubber: deps.scrubber }),
    ...doctorMethods({ paths: deps.paths, scrubber: deps.scrubber }),

    "logs.tail": (params) => {
      const { lines } = parse(logsParams, params, "logs.tail");
      return { lines: deps.logTail.tail(lines ?? 100) };
    },

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
