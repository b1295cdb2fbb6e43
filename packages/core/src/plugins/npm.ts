import { spawn } from "node:child_process";

export interface NpmRun {
  code: number;
  output: string;
}

/** Flags every npm call into the extensions prefix uses: no dev deps, no peer auto-install, quiet. */
export const NPM_INSTALL_FLAGS = ["--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund", "--no-update-notifier"] as const;

/**
 * Runs npm with `args`, streaming its output to `onOutput` and collecting it. Resolves with the
 * exit code (never rejects for a failing npm; rejects only when npm cannot be started).
 */
export function runNpm(
  args: readonly string[],
  options: { npm?: string; cwd: string; env?: NodeJS.ProcessEnv; onOutput?: (text: string) => void },
): Promise<NpmRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.npm ?? "npm", args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
    });
    let output = "";
    const collect = (chunk: string) => {
      output += chunk;
      options.onOutput?.(chunk);
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}
