import { randomUUID } from "node:crypto";
import type { AgentEvent, AgentRuntime, RunStatus } from "../agent/index.js";
import type { ChatCommands } from "../commands/index.js";
import type { MessageQueue, SubmitOutcome } from "../queue/index.js";
import { ControlError } from "./protocol.js";
import type { Connection } from "./control-server.js";
import { resolveSessionTarget, webchatSessionKey } from "./session-target.js";

/** What starts a control turn: the message, and where it goes (see `resolveSessionTarget`; `webchat` picks the client's WebChat session when no key is given). */
export interface TurnParams {
  message: string;
  agentId?: string;
  sessionKey?: string;
  webchat?: { clientId: string };
}

/** What `chat.send` answers, and what ends an `agent` stream. */
export interface ControlRunResult {
  runId: string;
  agentId: string;
  sessionKey: string;
  /** `dropped`: the queue did not take the message (full, or shutting down). */
  status: RunStatus | "dropped";
  text: string;
  silent: boolean;
}

interface TrackedRun {
  sessionKey: string;
  /** The agent runtime's run id, once the turn started. */
  runtimeRunId?: string;
  /** The queue's turn id, once known (a message that had to wait). */
  turnId?: string;
}

/**
 * Turns started over the control API (`agent`, `chat.send`) and their cancellation
 * (`chat.abort`). Every turn goes through the message queue, so it respects the session lanes and
 * the queue mode like a channel message does; chat commands (`/status`, `/model`, `/stop`, ...)
 * are answered by the same handler as in a channel's direct chat (`commands`), and `/new`,
 * `/reset` and `/queue` by the runtime and the queue as there. Control run ids are minted here
 * and returned at once.
 */
export class ControlRuns {
  private readonly runs = new Map<string, TrackedRun>();

  constructor(
    private readonly runtime: AgentRuntime,
    private readonly queue: MessageQueue,
    private readonly accepting: () => boolean,
    private readonly commands?: ChatCommands,
  ) {}

  /**
   * Starts a turn and streams its events to `connection` as `agent` events `{runId, event}`,
   * ending with `run_end`. Returns at once; the turn is submitted right after the response left.
   */
  startStreaming(params: TurnParams, connection: Connection): { runId: string; agentId: string; sessionKey: string } {
    const started = this.prepare(params);
    const { runId } = started;
    const emit = (event: AgentEvent) => {
      if (!connection.closed) connection.emit("agent", { runId, event });
    };
    setImmediate(() => void this.execute(started, params.message, emit));
    return { runId, agentId: started.agentId, sessionKey: started.sessionKey };
  }

  /** Runs a turn and resolves with its final reply (no streaming). */
  async send(params: TurnParams): Promise<ControlRunResult> {
    const started = this.prepare(params);
    return this.execute(started, params.message, () => undefined);
  }

  /**
   * Aborts a control run (by the `runId` this API returned), any queue or runtime run id, or
   * everything waiting and running in one session (default: the default agent's main session).
   */
  abort(params: { runId?: string; sessionKey?: string; agentId?: string }): { aborted: number; cancelled: number } {
    let target: { sessionKey?: string; runId?: string };
    const tracked = params.runId ? this.runs.get(params.runId) : undefined;
    if (tracked) {
      const id = tracked.runtimeRunId ?? tracked.turnId;
      target = { sessionKey: tracked.sessionKey, ...(id ? { runId: id } : {}) };
    } else if (params.runId) {
      target = { runId: params.runId, ...(params.sessionKey ? { sessionKey: resolveSessionTarget(this.runtime, params).sessionKey } : {}) };
    } else {
      target = { sessionKey: resolveSessionTarget(this.runtime, params).sessionKey };
    }
    const summary = this.queue.abort(target);
    return { aborted: summary.aborted.length, cancelled: summary.cancelled };
  }

  private prepare(params: TurnParams): { runId: string; agentId: string; sessionKey: string } {
    if (!this.accepting()) throw new ControlError("shutting_down", "the gateway is shutting down and takes no new runs");
    const { agentId, sessionKey } = resolveSessionTarget(this.runtime, params);
    if (params.webchat && !params.sessionKey)
      return { runId: randomUUID(), agentId, sessionKey: webchatSessionKey(agentId, params.webchat.clientId) };
    return { runId: randomUUID(), agentId, sessionKey };
  }

  private async execute(
    started: { runId: string; agentId: string; sessionKey: string },
    message: string,
    emit: (event: AgentEvent) => void,
  ): Promise<ControlRunResult> {
    const { runId, agentId, sessionKey } = started;
    const tracked: TrackedRun = { sessionKey };
    this.runs.set(runId, tracked);
    let ended = false;
    const begun = Date.now();
    const forward = (event: AgentEvent) => {
      if (event.type === "run_start") tracked.runtimeRunId = event.runId;
      if (event.type === "run_end") ended = true;
      emit(event);
    };
    let result: ControlRunResult;
    try {
      const command = await this.commands?.handle({
        text: message,
        agentId,
        sessionKey,
        channel: "webchat",
        chatKind: "direct",
        mentionsBot: true,
      });
      if (command?.kind === "reply") {
        result = { ...started, status: "ok", text: command.text, silent: false };
      } else {
        const text = command?.text ?? message;
        const outcome = await this.queue.submit({ agentId, sessionKey, text, onEvent: forward });
        result = await this.settle(outcome, tracked, started);
      }
    } catch (err) {
      const text = `The run failed: ${(err as Error)?.message ?? String(err)}`;
      if (!ended) emit({ type: "error", kind: "internal", message: text });
      result = { ...started, status: "error", text, silent: false };
    } finally {
      this.runs.delete(runId);
    }
    if (!ended) {
      // The message joined another run (steer, collect) or never ran: close the stream anyway.
      if (result.text || result.silent) emit({ type: "final", text: result.text, silent: result.silent });
      emit({
        type: "run_end",
        runId: tracked.runtimeRunId ?? runId,
        status: result.status === "dropped" ? "aborted" : result.status,
        usage: { inputTokens: 0, outputTokens: 0 },
        durationMs: Date.now() - begun,
      });
    }
    return result;
  }

  private async settle(
    outcome: SubmitOutcome,
    tracked: TrackedRun,
    started: { runId: string; agentId: string; sessionKey: string },
  ): Promise<ControlRunResult> {
    const base = { ...started, silent: false };
    switch (outcome.kind) {
      case "ran":
        return { ...base, status: outcome.result.status, text: outcome.result.text, silent: outcome.result.silent };
      case "queued":
      case "merged":
      case "steered": {
        if (outcome.kind !== "steered") tracked.turnId = outcome.turnId;
        const result = await outcome.result;
        return result
          ? { ...base, status: result.status, text: result.text, silent: result.silent }
          : { ...base, status: "aborted", text: "" };
      }
      case "dropped":
        return { ...base, status: "dropped", text: outcome.message };
      case "cancelled":
        return { ...base, status: "aborted", text: "" };
      case "command":
        return { ...base, status: "ok", text: outcome.reply };
    }
  }
}
