import { UserError } from "../config/index.js";

export interface NpmRun {
  code: number;
  output: string;
}

/** Flags that keep npm to the point: no audit, funding or update notices. */
export const NPM_QUIET_FLAGS = ["--no-audit", "--no-fund", "--no-update-notifier"] as const;

/**
 * Flags every npm install or uninstall in the extensions prefix uses: no dev dependencies, no
 * automatic peer dependencies (the host provides the SDK and zod), and `--install-links`, so a
 * `file:` folder dependency (left by an older release) is copied, never turned into a link.
 */
export const NPM_INSTALL_FLAGS = ["--omit=dev", "--legacy-peer-deps", "--install-links", ...NPM_QUIET_FLAGS] as const;

export interface NpmOptions {
  /** The npm executable; default `npm` from PATH. */
  npm?: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  onOutput?: (text: string) => void;
}

/**
 * Runs npm with `args`, streaming its output to `onOutput` and collecting it. Resolves with the
 * exit code (never rejects for a failing npm); rejects with a UserError when npm cannot be started.
 */
export async function runNpm(args: readonly string[], options: NpmOptions): Promise<NpmRun> {
  // Imported here: node:child_process costs a few ms to load, and most commands never run npm.
  const { spawn } = await import("node:child_process");
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
    child.on("error", (err) =>
      reject(
        new UserError(
          `Could not run npm (${err.message}); OpenClaw installs and removes plugins with npm, so install Node.js's npm and try again.`,
        ),
      ),
    );
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The UserError for an npm run that failed: what it was doing, the exit code and npm's last lines. */
export function npmFailure(what: string, run: NpmRun): UserError {
  return new UserError(`npm could not ${what} (exit code ${run.code}):\n${run.output.trim().split("\n").slice(-15).join("\n")}`);
}
