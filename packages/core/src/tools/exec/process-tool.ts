import { z } from "zod";
import { defineTool, ToolError } from "../../tool-contract/index.js";
import type { AgentTool } from "../../tool-contract/index.js";
import { describeJobStatus, formatDuration } from "./format.js";
import type { BackgroundJob, ProcessRegistry } from "./registry.js";

/** Longest a poll may wait for output. */
export const MAX_POLL_WAIT_MS = 60_000;

const schema = z.strictObject({
  action: z.enum(["list", "poll", "kill"]).describe("list: background jobs; poll: new output and status of one job; kill: stop one job."),
  jobId: z.string().optional().describe("Job id from exec (for poll and kill)."),
  waitMs: z
    .int()
    .min(0)
    .max(MAX_POLL_WAIT_MS)
    .optional()
    .describe(`poll only: wait up to this long for new output or the end of the job (default 0, max ${MAX_POLL_WAIT_MS}).`),
});

function jobSummary(job: BackgroundJob) {
  return {
    id: job.id,
    status: job.status,
    pid: job.shell.pid,
    exitCode: job.exit?.exitCode ?? null,
    runtimeMs: Date.now() - job.shell.startedAt,
    command: job.command,
  };
}

function readOutput(job: BackgroundJob): string {
  const { text, dropped } = job.log.readNew();
  const lost = dropped > 0 ? `[... ${dropped} earlier characters were dropped (limit tools.exec.maxOutputChars) ...]\n` : "";
  const body = text.length > 0 ? text.replace(/\n$/, "") : "(no new output)";
  return `${lost}${body}`;
}

/** The `process` tool: list, poll and kill the background jobs started by exec in this session. */
export function createProcessTool(processes: ProcessRegistry): AgentTool {
  return defineTool({
    name: "process",
    groups: ["group:runtime"],
    description:
      "Manage background jobs started by exec: list them, poll one for output printed since the last poll and its status, or kill one (with its child processes).",
    schema,
    async run(args, ctx) {
      if (args.action === "list") {
        const jobs = processes.list(ctx.sessionKey);
        if (jobs.length === 0) return { content: "No background jobs.", details: { jobs: [] } };
        const lines = jobs.map((j) => {
          const cmd = j.command.length > 80 ? `${j.command.slice(0, 77)}...` : j.command;
          const state = j.exit ? `${j.status}${j.exit.exitCode !== null ? ` (code ${j.exit.exitCode})` : ""}` : "running";
          return `${j.id}  ${state}  ${formatDuration(Date.now() - j.shell.startedAt)}  ${cmd}`;
        });
        return { content: lines.join("\n"), details: { jobs: jobs.map(jobSummary) } };
      }
      if (!args.jobId) throw new ToolError(`process ${args.action} needs a jobId; call process with action "list" to see them.`);
      const job = processes.get(args.jobId, ctx.sessionKey);
      if (!job) {
        const known = processes.list(ctx.sessionKey).map((j) => j.id);
        throw new ToolError(
          `No background job "${args.jobId}" in this session.${known.length > 0 ? ` Known jobs: ${known.join(", ")}.` : ""}`,
        );
      }
      if (args.action === "kill") {
        if (job.exit)
          return { content: `${readOutput(job)}\n\n${job.id} had already ended: ${describeJobStatus(job)}`, details: jobSummary(job) };
        await job.shell.kill();
        return { content: `${readOutput(job)}\n\n${job.id} ${describeJobStatus(job)}`, details: jobSummary(job) };
      }
      await job.waitForChange(args.waitMs ?? 0, ctx.signal);
      return { content: `${readOutput(job)}\n\n${job.id} ${describeJobStatus(job)}`, details: jobSummary(job) };
    },
  });
}
