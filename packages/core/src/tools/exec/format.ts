import type { BackgroundJob } from "./registry.js";
import type { ShellExit } from "./shell.js";

/** The status line appended to exec and process output. */
export function describeExit(
  exit: ShellExit,
  how: { timedOut?: boolean; timeoutSeconds?: number; aborted?: boolean; killed?: boolean },
): string {
  if (exit.spawnError) return `[failed to start: ${exit.spawnError}]`;
  if (how.timedOut) return `[timed out after ${how.timeoutSeconds}s; the process tree was killed]`;
  if (how.aborted) return "[aborted; the process tree was killed]";
  if (how.killed) return `[killed${exit.signal ? ` (${exit.signal})` : ""}]`;
  if (exit.signal) return `[terminated by signal ${exit.signal}]`;
  return `[exit code ${exit.exitCode ?? "unknown"}]`;
}

/** The notice placed where the middle of a long output was cut. */
export function omittedNotice(omitted: number, limit: number): string {
  return `\n\n[... ${omitted} characters of output omitted (limit tools.exec.maxOutputChars = ${limit}); redirect the output to a file and read parts of it to see everything ...]\n\n`;
}

export function formatDuration(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

/** `running (12.0s)` or the exit line of a finished background job. */
export function describeJobStatus(job: BackgroundJob): string {
  const exit = job.exit;
  if (!exit) return `[still running after ${formatDuration(Date.now() - job.shell.startedAt)}]`;
  return describeExit(exit, {
    timedOut: job.timedOut,
    ...(job.timeoutMs !== undefined ? { timeoutSeconds: job.timeoutMs / 1000 } : {}),
    killed: job.shell.killed,
  });
}
