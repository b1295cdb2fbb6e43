import { homedir } from "node:os";
import path from "node:path";

/** Where OpenClaw keeps its config and state for one invocation. */
export interface OpenClawPaths {
  /** Root of all state: `~/.openclaw`, `~/.openclaw-<profile>`, or `OPENCLAW_STATE_DIR`. */
  stateDir: string;
  /** The JSON5 config file: `<stateDir>/openclaw.json` unless `OPENCLAW_CONFIG_PATH` is set. */
  configPath: string;
  /** The profile name when `--profile` was given. */
  profile?: string;
}

export interface ResolvePathsOptions {
  /** `--profile <name>`: state moves to `~/.openclaw-<name>`; wins over `OPENCLAW_STATE_DIR`. */
  profile?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/** Thrown for mistakes a user can fix; the CLI prints the message without a stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "UserError";
  }
}

function expandHome(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/")) return path.join(home, p.slice(2));
  return p;
}

/**
 * Resolves the state directory and config file.
 * Precedence: `--profile` > `OPENCLAW_STATE_DIR` > `~/.openclaw`; `OPENCLAW_CONFIG_PATH` always
 * names the config file when set (relative paths resolve against the working directory).
 */
export function resolvePaths(options: ResolvePathsOptions = {}): OpenClawPaths {
  const env = options.env ?? process.env;
  const home = options.home ?? env.HOME ?? homedir();
  let stateDir: string;
  if (options.profile !== undefined) {
    if (!PROFILE_NAME.test(options.profile)) {
      throw new UserError(`--profile "${options.profile}" is not a valid profile name; use letters, digits, "-" and "_" (at most 64).`, 2);
    }
    stateDir = path.join(home, `.openclaw-${options.profile}`);
  } else if (env.OPENCLAW_STATE_DIR) {
    stateDir = path.resolve(expandHome(env.OPENCLAW_STATE_DIR, home));
  } else {
    stateDir = path.join(home, ".openclaw");
  }
  const configPath = env.OPENCLAW_CONFIG_PATH
    ? path.resolve(expandHome(env.OPENCLAW_CONFIG_PATH, home))
    : path.join(stateDir, "openclaw.json");
  return options.profile !== undefined ? { stateDir, configPath, profile: options.profile } : { stateDir, configPath };
}

/** `~/...` expansion for user-supplied paths in config values. */
export function expandUserPath(p: string, home: string = process.env.HOME ?? homedir()): string {
  return expandHome(p, home);
}
