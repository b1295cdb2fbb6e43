// The cron scheduler as the gateway builds it: each claimed job runs as a scheduled turn (its
// session's queue lane) and its reply goes through the pipeline's outbound path.
import { buildSessionKey } from "../sessions/index.js";
import type { CronJob } from "../state/index.js";
import { CronService, type CronRunOutcome } from "./cron-service.js";
import { gatewayTurnsOf, type GatewayHeartbeatInput } from "./gateway-heartbeat.js";
import { runScheduledTurn, type ScheduledTurnDeps, type ScheduledTurnOutcome } from "./scheduled-turn.js";
import { parseTarget } from "./target.js";

/** What the gateway hands the cron scheduler: the heartbeat's parts, without its broadcast. */
export type GatewayCronInput = Omit<GatewayHeartbeatInput, "broadcast">;

/** The session a job runs in: `agent:<id>:cron:<jobId>` (isolated) or the agent's main session. */
export function cronSessionKey(job: Pick<CronJob, "agentId" | "id" | "session">, mainSessionKey: (agentId: string) => string): string {
  return job.session === "main" ? mainSessionKey(job.agentId) : buildSessionKey({ kind: "cron", agentId: job.agentId, jobId: job.id });
}

/** How a scheduled turn's outcome is recorded in `cron_runs`. */
export function cronOutcomeOf(outcome: ScheduledTurnOutcome): CronRunOutcome {
  if (outcome.status === "skipped-busy" || !outcome.result)
    return { status: "skipped", delivered: false, error: "the job's previous run was still waiting or running" };
  const { result } = outcome;
  if (result.status === "aborted") return { status: "interrupted", delivered: false, error: "the run was aborted (the gateway stopped)" };
  if (result.status !== "ok") return { status: "error", delivered: false, error: result.error?.message ?? result.text };
  const undelivered = outcome.delivered || outcome.notDelivered === undefined ? undefined : outcome.notDelivered;
  // Nothing to send (silent, empty, target none) is fine; a failed send is the run's error.
  const failedSend = undelivered !== undefined && !["silent", "empty", "declined", "no-target"].includes(undelivered);
  return failedSend
    ? { status: "error", delivered: false, error: `the reply could not be delivered: ${undelivered}` }
    : { status: "ok", delivered: outcome.delivered };
}

/** Runs one job's turn with `turns` and maps the outcome. */
export async function runCronJob(
  turns: ScheduledTurnDeps,
  job: CronJob,
  mainSessionKey: (agentId: string) => string,
): Promise<CronRunOutcome> {
  const outcome = await runScheduledTurn(turns, {
    agentId: job.agentId,
    sessionKey: cronSessionKey(job, mainSessionKey),
    message: job.message,
    trigger: "cron",
    target: parseTarget(job.target, "last"),
    pendingKey: `cron:${job.id}`,
  });
  return cronOutcomeOf(outcome);
}

/** Builds (does not start) the gateway's cron scheduler; each finished run is logged. */
export function createGatewayCron(input: GatewayCronInput): CronService {
  const { log } = input;
  const turns = gatewayTurnsOf(input);
  const mainSessionKey = (agentId: string) => input.runtime.mainSessionKey(agentId);
  return new CronService({
    db: input.stateDb,
    log,
    runJob: async (job) => {
      const outcome = await runCronJob(turns, job, mainSessionKey);
      log.info(`cron: job ${job.id} of agent ${job.agentId}: ${outcome.status}${outcome.delivered ? ", delivered" : ""}`);
      return outcome;
    },
  });
}
