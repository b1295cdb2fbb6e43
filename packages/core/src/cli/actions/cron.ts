// `openclaw cron ...`, loaded only when one of them runs. With a live gateway (its record in the
// state folder, or --url / OPENCLAW_GATEWAY_URL) every command goes through the control API, so
// the scheduler sees the change at once. Without one, list/add/update/rm work on the state
// database directly (as `openclaw pairing` does) and the gateway reads the jobs when it starts.
import { existsSync } from "node:fs";
import { resolveAgentId } from "../../agents/index.js";
import { UserError } from "../../config/index.js";
import type { GatewayClient } from "../../gateway/index.js";
import { readLiveGatewayRecord } from "../../gateway/index.js";
import {
  CronInputError,
  CronService,
  describeCronJob,
  parseCronJobInput,
  parseCronJobPatch,
  type CronJobInput,
} from "../../scheduler/index.js";
import { stateDbPath, withStateDb, type CronJob, type CronRun } from "../../state/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";

export interface CronCommandOptions {
  at?: string;
  every?: string;
  cron?: string;
  tz?: string;
  message?: string;
  session?: string;
  target?: string;
  name?: string;
  agent?: string;
  disabled?: boolean;
  /** Set by `cron enable|disable`. */
  enabled?: boolean;
  json?: boolean;
  url?: string;
  token?: string;
}

/** How long `cron run` waits for the job's turn and delivery. */
const RUN_TIMEOUT_MS = 15 * 60_000;

function online(ctx: CliContext, opts: CronCommandOptions): boolean {
  return opts.url !== undefined || !!process.env.OPENCLAW_GATEWAY_URL || readLiveGatewayRecord(ctx.paths().stateDir) !== undefined;
}

async function withGateway<T>(ctx: CliContext, opts: CronCommandOptions, fn: (client: GatewayClient) => Promise<T>): Promise<T> {
  const { connectToGateway, GatewayRequestError } = await import("../../gateway/index.js");
  const client = await connectToGateway({
    paths: ctx.paths(),
    ...(opts.url ? { url: opts.url } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  try {
    return await fn(client);
  } catch (err) {
    // The gateway's answer names the field and the fix (a bad schedule, an unknown id).
    if (err instanceof GatewayRequestError && (err.code === "invalid_params" || err.code === "not_found"))
      throw new UserError(`openclaw cron: ${err.message}`);
    throw err;
  } finally {
    await client.close();
  }
}

/** The job store of the state database, for commands run without a gateway. */
function withOfflineJobs<T>(ctx: CliContext, fn: (jobs: CronService) => T): T {
  return withStateDb(ctx.paths().stateDir, (db) =>
    fn(new CronService({ db, runJob: () => Promise.reject(new Error("jobs run only in the gateway")) })),
  );
}

function inputOf(opts: CronCommandOptions): Partial<CronJobInput> {
  if (opts.session !== undefined && opts.session !== "isolated" && opts.session !== "main") {
    throw new UserError(
      `--session "${opts.session}" is not a session mode: use "isolated" (its own session) or "main" (the agent's main session).`,
    );
  }
  const input: Partial<CronJobInput> = {};
  for (const key of ["at", "every", "cron", "tz", "message", "target", "name"] as const)
    if (opts[key] !== undefined) input[key] = opts[key];
  if (opts.session !== undefined) input.session = opts.session as CronJobInput["session"];
  if (opts.disabled) input.enabled = false;
  if (opts.enabled !== undefined) input.enabled = opts.enabled;
  return input;
}

/** Input errors become a UserError naming the option. */
function checked<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof CronInputError) throw new UserError(`openclaw cron: ${err.message}.`);
    throw err;
  }
}

function printJob(ctx: CliContext, opts: CronCommandOptions, verb: string, job: CronJob): void {
  if (opts.json) writeJson(ctx.stdout, { job });
  else writeLine(ctx.stdout, `${verb} ${describeCronJob(job)}`);
}

/** `cron list`: one line per job. */
export async function listCron(ctx: CliContext, opts: CronCommandOptions): Promise<void> {
  let jobs: CronJob[];
  if (online(ctx, opts)) {
    jobs = (await withGateway(ctx, opts, (c) => c.request<{ jobs: CronJob[] }>("cron.list", opts.agent ? { agentId: opts.agent } : {})))
      .jobs;
  } else if (existsSync(stateDbPath(ctx.paths().stateDir))) {
    // Listing never creates the database.
    jobs = withOfflineJobs(ctx, (s) => s.list(opts.agent?.trim().toLowerCase()));
  } else {
    jobs = [];
  }
  if (opts.json) return writeJson(ctx.stdout, { jobs });
  if (jobs.length === 0) return writeLine(ctx.stdout, 'No cron jobs. Add one with `openclaw cron add --every 1d --message "..."`.');
  for (const job of jobs) writeLine(ctx.stdout, describeCronJob(job));
}

/** `cron add`: stores a job and prints it. */
export async function addCron(ctx: CliContext, opts: CronCommandOptions): Promise<void> {
  const input = { message: "", ...inputOf(opts) };
  if (online(ctx, opts)) {
    const { job } = await withGateway(ctx, opts, (c) =>
      c.request<{ job: CronJob }>("cron.add", { ...input, ...(opts.agent ? { agentId: opts.agent } : {}) }),
    );
    return printJob(ctx, opts, "Added", job);
  }
  const { config, path: configPath } = await ctx.loadConfig();
  const agentId = resolveAgentId(config, opts.agent, configPath);
  const job = checked(() => withOfflineJobs(ctx, (s) => s.add(parseCronJobInput(input, agentId, Date.now()))));
  printJob(ctx, opts, "Added", job);
  writeLine(ctx.stderr, "No gateway is running: the job runs once `openclaw gateway` starts (a time that passed by then runs at once).");
}

/** `cron update|enable|disable <id>`. */
export async function updateCron(ctx: CliContext, id: string, opts: CronCommandOptions): Promise<void> {
  const input = inputOf(opts);
  if (online(ctx, opts)) {
    const { job } = await withGateway(ctx, opts, (c) => c.request<{ job: CronJob }>("cron.update", { id, ...input }));
    return printJob(ctx, opts, "Updated", job);
  }
  const job = checked(() => withOfflineJobs(ctx, (s) => s.update(id, parseCronJobPatch(input, Date.now()))));
  if (!job) throw new UserError(`There is no cron job "${id}"; \`openclaw cron list\` shows the ids.`);
  printJob(ctx, opts, "Updated", job);
}

/** `cron rm <id>`. */
export async function removeCron(ctx: CliContext, id: string, opts: CronCommandOptions): Promise<void> {
  if (online(ctx, opts)) {
    await withGateway(ctx, opts, (c) => c.request("cron.remove", { id }));
  } else if (!existsSync(stateDbPath(ctx.paths().stateDir)) || !withOfflineJobs(ctx, (s) => s.remove(id))) {
    throw new UserError(`There is no cron job "${id}"; \`openclaw cron list\` shows the ids.`);
  }
  writeLine(ctx.stdout, `Removed cron job ${id.trim().toLowerCase()}.`);
}

/** `cron run <id>`: runs it through the gateway, waits, prints how it went; exit 1 when the run failed. */
export async function runCron(ctx: CliContext, id: string, opts: CronCommandOptions): Promise<void> {
  if (!online(ctx, opts)) {
    throw new UserError(
      "`openclaw cron run` needs the running gateway (it runs the turn and delivers the reply); start it with `openclaw gateway`.",
    );
  }
  const { run } = await withGateway(ctx, opts, (c) => c.request<{ run?: CronRun }>("cron.run", { id }, { timeoutMs: RUN_TIMEOUT_MS }));
  if (opts.json) return writeJson(ctx.stdout, { run: run ?? null });
  if (!run) return writeLine(ctx.stdout, `Job ${id} ran; its record is gone (the job was removed meanwhile).`);
  writeLine(
    ctx.stdout,
    `Job ${run.jobId}: ${run.status}${run.delivered ? ", reply delivered" : ", nothing delivered"}${run.error ? ` (${run.error})` : ""}`,
  );
  if (run.status === "error") process.exitCode = 1;
}
