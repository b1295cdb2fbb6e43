// One scheduled turn (heartbeat, cron): run in the session's queue lane, then deliver the reply.
import type { TurnResult, TurnTrigger } from "../agent/index.js";
import type { MessageQueue } from "../queue/index.js";
import type { ScheduledTurnTarget } from "./target.js";

export type { ScheduledTurnTarget } from "./target.js";

/** What a scheduled turn needs from the running gateway. */
export interface ScheduledTurnDeps {
  /** The gateway's message queue: the turn waits for and runs in its session's lane. */
  queue: Pick<MessageQueue, "submit">;
  /**
   * Sends the reply to a chat through the normal outbound path of the target's account; `key`
   * makes the send happen once. Rejects when the account is not running.
   */
  deliver(target: ScheduledTurnTarget, text: string, key: string): Promise<unknown>;
  /** The agent's last contact (target `"last"`); undefined when nobody wrote to it yet. */
  lastContact?(agentId: string): ScheduledTurnTarget | undefined;
  log?: { info(message: string): void; warn(message: string): void };
}

export interface ScheduledTurnRequest {
  agentId: string;
  sessionKey: string;
  message: string;
  trigger: TurnTrigger;
  target: ScheduledTurnTarget | "last" | "none";
  /** Return false to drop the reply (heartbeat ack); default deliver when non-empty and not silent. */
  shouldDeliver?: (text: string) => boolean;
  /** Rewrites the reply before `shouldDeliver` and delivery (e.g. strips an ack token); default as is. */
  rewrite?: (text: string) => string;
  /**
   * Runs with the same key are never pending twice: a second one is skipped while the first
   * waits or runs. Default `<trigger>:<sessionKey>`; a cron job passes its own id.
   */
  pendingKey?: string;
}

export interface ScheduledTurnOutcome {
  /** `skipped-busy`: a run with the same pending key was already waiting or running, or the queue refused or cancelled it. */
  status: "ran" | "skipped-busy";
  result?: TurnResult;
  /** True once the reply was handed to the channel. */
  delivered: boolean;
  /** Why nothing was delivered after a run: "silent", "empty", "declined", "no-target", "failed-run", or the delivery error. */
  notDelivered?: string;
}

// Pending scheduled runs, per queue (one queue per gateway).
const pendingByQueue = new WeakMap<object, Set<string>>();

function pendingOf(queue: object): Set<string> {
  let set = pendingByQueue.get(queue);
  if (!set) {
    set = new Set();
    pendingByQueue.set(queue, set);
  }
  return set;
}

/** Whether a scheduled run with this pending key is waiting or running on this queue. */
export function isScheduledRunPending(queue: object, pendingKey: string): boolean {
  return pendingOf(queue).has(pendingKey);
}

async function runInLane(deps: ScheduledTurnDeps, req: ScheduledTurnRequest): Promise<TurnResult | undefined> {
  const outcome = await deps.queue.submit({
    agentId: req.agentId,
    sessionKey: req.sessionKey,
    text: req.message,
    touch: false,
    trigger: req.trigger,
    ownTurn: true,
  });
  if (outcome.kind === "ran") return outcome.result;
  if (outcome.kind === "queued" || outcome.kind === "merged" || outcome.kind === "steered") return outcome.result;
  return undefined;
}

/**
 * Runs one scheduled turn in the session's lane of the MessageQueue: it never overlaps a busy
 * session (it waits for the running turn, as a turn of its own that takes no steering), and is
 * skipped when a run with the same pending key is already waiting or running. The reply is then
 * delivered to `target` (`"last"`: the agent's last contact, nothing when there is none;
 * `"none"`: nowhere) unless it is empty, the silent token, declined by `shouldDeliver`, or the
 * run failed. A failed delivery is logged and reported in `notDelivered`, never thrown.
 */
export async function runScheduledTurn(deps: ScheduledTurnDeps, req: ScheduledTurnRequest): Promise<ScheduledTurnOutcome> {
  const pendingKey = req.pendingKey ?? `${req.trigger}:${req.sessionKey.trim().toLowerCase()}`;
  const pending = pendingOf(deps.queue);
  if (pending.has(pendingKey)) return { status: "skipped-busy", delivered: false };
  pending.add(pendingKey);
  let result: TurnResult | undefined;
  try {
    result = await runInLane(deps, req);
  } finally {
    pending.delete(pendingKey);
  }
  if (!result) return { status: "skipped-busy", delivered: false };
  const notDelivered = (why: string): ScheduledTurnOutcome => ({ status: "ran", result, delivered: false, notDelivered: why });
  if (result.status !== "ok") return notDelivered("failed-run");
  if (result.silent) return notDelivered("silent");
  const text = req.rewrite ? req.rewrite(result.text) : result.text;
  if (text.trim() === "") return notDelivered("empty");
  if (req.shouldDeliver && !req.shouldDeliver(text)) return notDelivered("declined");
  const target = req.target === "last" ? deps.lastContact?.(req.agentId) : req.target === "none" ? undefined : req.target;
  if (!target) return notDelivered("no-target");
  try {
    await deps.deliver(target, text, `scheduled:${req.trigger}:${result.runId}`);
    return { status: "ran", result, delivered: true };
  } catch (err) {
    const message = (err as Error).message;
    deps.log?.warn(
      `${req.trigger} reply of agent ${req.agentId} could not be delivered to ${target.channel}:${target.accountId}:${target.chatId}: ${message}`,
    );
    return notDelivered(message);
  }
}
