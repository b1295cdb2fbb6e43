import { execFile } from "node:child_process";

/** What a finished command answered. `code` is 0 on success; a missing binary gives code 127. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program (`systemctl`, `launchctl`, `loginctl`) with arguments and collects its output.
 * Never throws for a non-zero exit: the caller decides what a failure means. Injected so tests
 * never touch the host's service manager.
 */
export type CommandRunner = (command: string, args: readonly string[]) => Promise<RunResult>;

/** The real runner: `execFile` with no shell, 30 s timeout; a binary that is not on PATH answers code 127. */
export const execRunner: CommandRunner = createExecRunner(30_000);

/** A real runner whose commands are killed after `timeoutMs` (a package install needs minutes). */
export function createExecRunner(timeoutMs: number): CommandRunner {
  return (command, args) =>
    new Promise((resolve) => {
      execFile(command, [...args], { timeout: timeoutMs, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (!err) return resolve({ code: 0, stdout, stderr });
        const e = err as NodeJS.ErrnoException & { code?: number | string };
        if (e.code === "ENOENT") return resolve({ code: 127, stdout: "", stderr: `${command}: not found on PATH` });
        resolve({ code: typeof e.code === "number" ? e.code : 1, stdout, stderr: stderr || e.message });
      });
    });
}

/** The first line of what a failed command said (stderr first), for an error message. */
export function firstLine(result: RunResult): string {
  return (result.stderr.trim() || result.stdout.trim() || `exit code ${result.code}`).split("\n")[0] ?? "";
}
