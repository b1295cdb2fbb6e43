import type { OpenClawConfig } from "../../config/index.js";

/**
 * Variables of the gateway's own environment that every command gets: where programs are, who
 * and where the user is, locale, terminal and temp folders. Nothing here carries a credential.
 */
export const EXEC_ENV_ALLOWLIST: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "TZ",
  "TMPDIR",
  "TMP",
  "TEMP",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
];

/** Variables set for every command, over everything else: output goes to the tool, not a pager. */
const EXEC_ENV_FIXED = { PAGER: "cat", GIT_PAGER: "cat" } as const;

export interface ExecEnvOptions {
  /** The gateway's environment (default `process.env`). */
  parent?: NodeJS.ProcessEnv;
  /** Extra names to take from `parent` (`tools.exec.passEnv`). */
  passEnv?: readonly string[];
  /** Variables set on top (the skill env of the run). */
  extra?: Readonly<Record<string, string>>;
}

/**
 * The environment a command runs with: from `parent`, only {@link EXEC_ENV_ALLOWLIST}, `LC_*`
 * and the names in `passEnv` (names unset in `parent` are skipped); then `extra`; then
 * `PAGER=cat` and `GIT_PAGER=cat`. Everything else, the gateway token and every channel and
 * provider credential included, stays out.
 */
export function buildExecEnv(options: ExecEnvOptions = {}): Record<string, string> {
  const parent = options.parent ?? process.env;
  const wanted = new Set([...EXEC_ENV_ALLOWLIST, ...(options.passEnv ?? [])]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (wanted.has(name) || name.startsWith("LC_")) env[name] = value;
  }
  return { ...env, ...options.extra, ...EXEC_ENV_FIXED };
}

/** The environment for exec in a run: `process.env` scrubbed, `tools.exec.passEnv`, then the skill env. */
export function execEnvFor(
  config: OpenClawConfig | undefined,
  skillEnv: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  return buildExecEnv({ passEnv: config?.tools?.exec?.passEnv ?? [], ...(skillEnv ? { extra: skillEnv } : {}) });
}
