// Control API methods of the heartbeat: `heartbeat.now` and `heartbeat.status`.
import { z } from "zod";
import type { AgentRuntime } from "../agent/index.js";
import type { HeartbeatScheduler } from "../scheduler/index.js";
import type { MethodHandler } from "./control-server.js";
import { ControlError } from "./protocol.js";

const nowParams = z.object({ agentId: z.string().min(1).optional() });

/**
 * - `heartbeat.now {agentId?}`: runs one heartbeat of the agent (default: the default agent) now and
 *   answers when it finished: `{agentId, status, manual, startedAt, finishedAt, runId?}`.
 * - `heartbeat.status`: `{heartbeat: [{agentId, every, target, lastRunAt, nextRunAt, lastStatus, running, activeHours?}]}`.
 */
export function createHeartbeatMethods(deps: { runtime: AgentRuntime; heartbeat: HeartbeatScheduler }): Record<string, MethodHandler> {
  return {
    "heartbeat.now": async (params) => {
      const parsed = nowParams.safeParse(params ?? {});
      if (!parsed.success) throw new ControlError("invalid_params", `heartbeat.now: ${z.prettifyError(parsed.error).replace(/\n/g, "; ")}`);
      let agentId: string;
      try {
        agentId = deps.runtime.resolveAgent(parsed.data.agentId);
      } catch (err) {
        throw new ControlError("invalid_params", (err as Error).message);
      }
      return deps.heartbeat.runNow(agentId);
    },
    "heartbeat.status": () => ({ heartbeat: deps.heartbeat.status() }),
  };
}
