import { realpathSync } from "node:fs";
import path from "node:path";
import type { OpenClawPaths } from "../config/paths.js";

/** How the service starts the gateway: the program, its arguments and the environment it keeps. */
export interface GatewayLaunch {
  /** The Node binary that runs the CLI now (`process.execPath`), so the service uses the same Node. */
  program: string;
  /** The CLI entry the user ran (resolved through symlinks), then `gateway` and `--profile <name>` when one is in use. */
  args: string[];
  /** Variables written into the unit: where config and state live, the port, and PATH. Never a secret. */
  env: Record<string, string>;
  stateDir: string;
  /** `<stateDir>/logs`: the gateway's own log files. */
  logDir: string;
}

/**
 * Environment variables the service carries over from the installing shell. Secrets (such as
 * OPENCLAW_GATEWAY_TOKEN or a provider key) are left out on purpose: a unit file is readable by
 * other local users; put them in `<stateDir>/gateway.env` (systemd) or the config instead.
 */
export const CARRIED_ENV = ["OPENCLAW_STATE_DIR", "OPENCLAW_CONFIG_PATH", "OPENCLAW_GATEWAY_PORT", "PATH"] as const;

export interface LaunchOptions {
  paths: OpenClawPaths;
  env: NodeJS.ProcessEnv;
  /** Default `process.execPath`. */
  execPath?: string;
  /** Default `process.argv[1]`, the script Node is running (the `openclaw` bin or `dist/cli/main.js`). */
  entry?: string;
}

/** The command line and environment of the gateway service, taken from the running CLI. */
export function resolveGatewayLaunch(options: LaunchOptions): GatewayLaunch {
  const entry = options.entry ?? process.argv[1];
  if (!entry) throw new Error("cannot tell which openclaw entry point is running (process.argv[1] is empty)");
  const args = [resolveReal(path.resolve(entry)), "gateway"];
  if (options.paths.profile !== undefined) args.push("--profile", options.paths.profile);
  const env: Record<string, string> = {};
  for (const key of CARRIED_ENV) {
    const value = options.env[key];
    if (value) env[key] = value;
  }
  // The state dir the CLI resolved is the one the service must use, whatever HOME the manager gives it.
  if (options.paths.profile === undefined) env.OPENCLAW_STATE_DIR = options.paths.stateDir;
  return {
    program: options.execPath ?? process.execPath,
    args,
    env,
    stateDir: options.paths.stateDir,
    logDir: path.join(options.paths.stateDir, "logs"),
  };
}

function resolveReal(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
