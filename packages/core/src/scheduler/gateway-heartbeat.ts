// The heartbeat scheduler as the gateway builds it: its queue, its pipeline's outbound path, its state database.
import type { ChannelPlugin } from "@openclaw/plugin-sdk";
import type { AgentRuntime } from "../agent/index.js";
import type { OpenClawConfig } from "../config/index.js";
import type { MessageQueue } from "../queue/index.js";
import type { StateDb } from "../state/index.js";
import { gatewayScheduledTurnDeps } from "./gateway-deps.js";
import { HeartbeatScheduler } from "./heartbeat.js";
import { HeartbeatStore } from "./heartbeat-store.js";
import type { ScheduledTurnDeps } from "./scheduled-turn.js";
import type { ChatRef } from "@openclaw/plugin-sdk";

export interface GatewayHeartbeatInput {
  config: OpenClawConfig;
  runtime: Pick<AgentRuntime, "mainSessionKey">;
  queue: MessageQueue;
  stateDb: StateDb;
  /** The inbound pipeline; its `send` delivers the replies. */
  pipeline: { send?(target: { channel: string; accountId: string; chat: ChatRef }, text: string, key: string): Promise<string[]> };
  plugins: ReadonlyMap<string, ChannelPlugin<unknown>>;
  log: { info(message: string): void; warn(message: string): void };
  /** Tells control clients about each run (event "heartbeat"). */
  broadcast(event: string, payload: unknown): void;
}

/** Scheduled turns through the gateway's queue and its pipeline's outbound path (heartbeat and cron). */
export function gatewayTurnsOf(input: Omit<GatewayHeartbeatInput, "runtime" | "broadcast">): ScheduledTurnDeps {
  const { pipeline } = input;
  return gatewayScheduledTurnDeps({
    config: input.config,
    queue: input.queue,
    stateDb: input.stateDb,
    send: pipeline.send ? (target, text, key) => pipeline.send!(target, text, key) : undefined,
    rulesOf: (channel) => input.plugins.get(channel)?.config.ids,
    log: input.log,
  });
}

/** Builds (does not start) the gateway's heartbeat scheduler; each run is logged and broadcast as a "heartbeat" event. */
export function createGatewayHeartbeat(input: GatewayHeartbeatInput): HeartbeatScheduler {
  const { log } = input;
  return new HeartbeatScheduler({
    config: input.config,
    store: new HeartbeatStore(input.stateDb),
    turns: gatewayTurnsOf(input),
    mainSessionKey: (agentId) => input.runtime.mainSessionKey(agentId),
    log,
    onRun: (event) => {
      log.info(`heartbeat: agent ${event.agentId}${event.manual ? " (manual)" : ""}: ${event.status}`);
      input.broadcast("heartbeat", event);
    },
  });
}
