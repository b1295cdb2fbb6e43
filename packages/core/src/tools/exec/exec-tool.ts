import { z } from "zod";
import { defineTool, ToolError } from "../../tool-contract/index.js";
import type { AgentTool, ToolContext, ToolResult } from "../../tool-contract/index.js";
import { resolveToolPath } from "../tool-path.js";
import { execEnvFor } from "./environment.js";
import { checkExecPolicy } from "./exec-policy.js";
import { describeExit, describeJobStatus, omittedNotice } from "./format.js";
import { HeadTailBuffer } from "./output-buffer.js";
import type { BackgroundJob, ProcessRegistry } from "./registry.js";
import { resolveExecSettings } from "./settings.js";
import { ShellProcess } from "./shell.js";

const schema = z.strictObject({
  command: z.string().min(1).describe("Shell command, run with /bin/sh -c in the workspace."),
  workdir: z.string().optional().describe("Folder to run in, relative to the workspace (default: the workspace)."),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe("Seconds before the command and its children are killed (default and ceiling: tools.exec.timeoutSeconds)."),
  background: z.boolean().optional().describe("Start as a background job and return its id at once; follow it with the process tool."),
  yieldMs: z
    .int()
    .min(0)
    .optional()
    .describe("Wait this many milliseconds; if the command is still running it continues as a background job."),
});

type Args = z.output<typeof schema>;

async function runForeground(args: Args, ctx: ToolContext, cwd: string, env: Record<string, string>): Promise<ToolResult> {
  const settings = resolveExecSettings(ctx.config);
  const timeoutSeconds = Math.min(args.timeout ?? settings.timeoutSeconds, settings.timeoutSeconds);
  const shell = new ShellProcess({ command: args.command, cwd, env });
  const output = new HeadTailBuffer(settings.maxOutputChars);
  shell.onOutput((t) => output.push(t));
  let timedOut = false;
  let aborted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void shell.kill();
  }, timeoutSeconds * 1000);
  const onAbort = () => {
    aborted = true;
    void shell.kill();
  };
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  const exit = await shell.done;
  clearTimeout(timer);
  ctx.signal.removeEventListener("abort", onAbort);

  const body = output.render((n) => omittedNotice(n, settings.maxOutputChars));
  const status = describeExit(exit, { timedOut, timeoutSeconds, aborted });
  const failed = timedOut || aborted || exit.spawnError !== undefined || exit.signal !== null || exit.exitCode !== 0;
  return {
    content: `${body.length > 0 ? body.replace(/\n$/, "") : "(no output)"}\n\n${status}`,
    isError: failed,
    details: {
      exitCode: exit.exitCode,
      signal: exit.signal,
      timedOut,
      aborted,
      durationMs: Date.now() - shell.startedAt,
      outputChars: output.length,
      truncated: output.omitted > 0,
    },
  };
}

function jobStartedResult(job: BackgroundJob, soFar: string): ToolResult {
  return {
    content:
      `${soFar.length > 0 ? `${soFar.replace(/\n$/, "")}\n\n` : ""}` +
      `[running in the background as ${job.id} (pid ${job.shell.pid ?? "?"}); use the process tool: poll to read new output, kill to stop it]`,
    details: { jobId: job.id, pid: job.shell.pid, background: true },
  };
}

function finishedJobResult(job: BackgroundJob): ToolResult {
  const { text } = job.log.readNew();
  const exit = job.exit!;
  const failed = job.status !== "exited" || exit.exitCode !== 0;
  return {
    content: `${text.length > 0 ? text.replace(/\n$/, "") : "(no output)"}\n\n${describeJobStatus(job)}`,
    isError: failed,
    details: { exitCode: exit.exitCode, signal: exit.signal, durationMs: Date.now() - job.shell.startedAt },
  };
}

/**
 * The `exec` tool: `/bin/sh -c <command>` with cwd = the workspace (or `workdir` inside it).
 * - Foreground: waits up to `timeout` seconds (capped by `tools.exec.timeoutSeconds`, default
 *   1800), then kills the whole process tree; output (stdout and stderr merged) is capped at
 *   `tools.exec.maxOutputChars` (default 200000), keeping head and tail with a notice between.
 *   A non-zero exit, a signal, a timeout or an abort makes the result an error.
 * - `background: true` returns a job id at once; `yieldMs` waits that long first and returns the
 *   normal result if the command finished by then. Background jobs have no timeout unless one is
 *   given, and die when the run is aborted.
 * - `tools.exec.mode` ("full" by default; "allowlist" with `tools.exec.allowlist`; "deny") decides
 *   which commands run at all; a refused command is an error result naming the key.
 * - The environment is the gateway's scrubbed of secrets (see `buildExecEnv`), plus
 *   `tools.exec.passEnv` and the run's skill env.
 */
export function createExecTool(processes: ProcessRegistry): AgentTool {
  return defineTool({
    name: "exec",
    groups: ["group:runtime"],
    description:
      "Run a shell command (/bin/sh -c) in the workspace and return its output and exit code. " +
      "Long-running commands (servers, watchers) should use background: true or yieldMs, then the process tool.",
    schema,
    async run(args, ctx) {
      const cwd = args.workdir ? resolveToolPath(ctx, args.workdir, { mustExist: true }).path : ctx.workspaceDir;
      const settings = resolveExecSettings(ctx.config);
      const verdict = checkExecPolicy(args.command, settings.mode, settings.allowlist, cwd);
      if (!verdict.allowed) throw new ToolError(verdict.reason, { refused: true, mode: settings.mode });
      const env = execEnvFor(ctx.config, ctx.env);
      if (!args.background && args.yieldMs === undefined) return runForeground(args, ctx, cwd, env);
      const timeoutSeconds = args.timeout === undefined ? undefined : Math.min(args.timeout, settings.timeoutSeconds);
      const job = processes.start({
        command: args.command,
        cwd,
        sessionKey: ctx.sessionKey,
        maxOutputChars: settings.maxOutputChars,
        env,
        ...(timeoutSeconds !== undefined ? { timeoutMs: timeoutSeconds * 1000 } : {}),
        signal: ctx.signal,
      });
      if (args.background) return jobStartedResult(job, "");
      await job.waitForExit(args.yieldMs ?? 0);
      if (job.exit) {
        processes.remove(job.id);
        return finishedJobResult(job);
      }
      return jobStartedResult(job, job.log.readNew().text);
    },
  });
}
