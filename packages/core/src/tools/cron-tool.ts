import { z } from "zod";
import { parseSessionKey } from "../sessions/index.js";
import { withStateDb } from "../state/index.js";
import { CronInputError, CronService, describeCronJob, parseCronJobInput, parseCronJobPatch, type CronJobs } from "../scheduler/index.js";
import { defineTool, ToolError, type AgentTool, type ToolContext } from "../tool-contract/index.js";
import { isOwnerMainSession } from "./gateway/owner.js";

/** What the `cron` tool needs from the process it runs in. */
export interface CronToolHost {
  /** The running gateway's scheduler; absent (or undefined) without a gateway: jobs are then written to the state database directly and `run` is refused. */
  jobs?(): CronJobs | undefined;
}

const schema = z.strictObject({
  action: z
    .enum(["add", "list", "update", "remove", "run"])
    .describe("add a job; list this agent's jobs; update or remove one by id; run one now."),
  id: z.string().min(1).optional().describe("The job id (update, remove, run)."),
  message: z.string().min(1).optional().describe("What you are told when the job runs (add; update)."),
  at: z.string().optional().describe('One-shot time: ISO date-time with offset, or a delay "+20m" / "in 2h".'),
  every: z.string().optional().describe('Interval: "30m", "2h", "1d".'),
  cron: z.string().optional().describe('Cron expression, e.g. "0 9 * * 1-5" (6 fields: seconds first).'),
  tz: z.string().optional().describe('IANA timezone of cron, e.g. "Europe/Berlin" (default: the host\'s).'),
  session: z
    .enum(["isolated", "main"])
    .optional()
    .describe("isolated (default): a fresh session per job; main: a message into your main session."),
  target: z
    .string()
    .optional()
    .describe('Where the reply goes: "last" (default, the last chat), "none", or "<channel>:<accountId>:<chatId>".'),
  name: z.string().optional().describe("A short label."),
  enabled: z.boolean().optional().describe("update: pause (false) or resume (true)."),
});

/** True in the sessions that may manage jobs: the owner's main session and the agent's own cron sessions. */
function mayManageJobs(ctx: ToolContext): boolean {
  if (isOwnerMainSession(ctx.config, ctx.agentId, ctx.sessionKey)) return true;
  const parsed = parseSessionKey(ctx.sessionKey);
  return parsed.kind === "cron" && parsed.agentId === ctx.agentId;
}

/**
 * The `cron` tool: schedules turns of this agent (at a time, every interval, or by a cron
 * expression in a timezone) whose replies go to a chat. Works in the owner's main session and the
 * agent's cron sessions only (any other session gets an error), and only on the agent's own jobs.
 * Without a running gateway (`host.jobs()` undefined) jobs are written to the state database,
 * where the gateway finds them when it starts; `run` then fails.
 */
export function createCronTool(host: CronToolHost = {}): AgentTool {
  return defineTool({
    name: "cron",
    description:
      "Schedule your own future turns: reminders, daily briefs, periodic checks. A job runs at a time, every interval, " +
      "or by a cron expression, and its reply is sent to a chat. Missed runs after downtime run once.",
    groups: ["group:automation"],
    schema,
    async run(input, ctx) {
      if (!mayManageJobs(ctx)) {
        throw new ToolError(
          `The cron tool works only in the owner's main session (agent:${ctx.agentId}:${ctx.config.session.mainKey}) and the agent's cron sessions; this is ${ctx.sessionKey}.`,
        );
      }
      const live = host.jobs?.();
      if (live) return act(live, input, ctx);
      if (input.action === "run")
        throw new ToolError("No gateway runs in this process; start it with `openclaw gateway` to run a job now.");
      return withStateDb(ctx.stateDir, (db) =>
        act(new CronService({ db, runJob: () => Promise.reject(new Error("no gateway")) }), input, ctx),
      );
    },
  });
}

type Input = z.output<typeof schema>;

function ownJob(jobs: CronJobs, input: Input, ctx: ToolContext) {
  if (!input.id) throw new ToolError(`${input.action} needs the job's id (see action "list").`);
  const job = jobs.get(input.id);
  if (!job || job.agentId !== ctx.agentId)
    throw new ToolError(`There is no job "${input.id}" of agent ${ctx.agentId}; list shows the ids.`);
  return job;
}

async function act(jobs: CronJobs, input: Input, ctx: ToolContext) {
  try {
    switch (input.action) {
      case "list": {
        const list = jobs.list(ctx.agentId);
        if (list.length === 0) return { content: "No cron jobs.", details: { jobs: [] } };
        return { content: list.map((j) => describeCronJob(j)).join("\n"), details: { jobs: list } };
      }
      case "add": {
        const job = jobs.add(parseCronJobInput({ ...input, message: input.message ?? "" }, ctx.agentId, Date.now()));
        return { content: `Added ${describeCronJob(job)}`, details: { job } };
      }
      case "update": {
        const job = jobs.update(ownJob(jobs, input, ctx).id, parseCronJobPatch(input, Date.now()))!;
        return { content: `Updated ${describeCronJob(job)}`, details: { job } };
      }
      case "remove": {
        jobs.remove(ownJob(jobs, input, ctx).id);
        return { content: `Removed job ${input.id}.` };
      }
      case "run": {
        const job = ownJob(jobs, input, ctx);
        if (!jobs.runNow) throw new ToolError("No gateway runs in this process; start it with `openclaw gateway` to run a job now.");
        // The job's turn waits behind this one when it runs in this same session; don't wait for it.
        void jobs.runNow(job.id);
        return { content: `Started job ${job.id}; its reply goes to ${job.target}.` };
      }
    }
  } catch (err) {
    if (err instanceof CronInputError) throw new ToolError(err.message);
    throw err;
  }
}
