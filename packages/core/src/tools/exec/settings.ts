import type { OpenClawConfig } from "../../config/index.js";
import type { ExecMode } from "./exec-policy.js";

/** `tools.exec.timeoutSeconds` default. */
export const DEFAULT_EXEC_TIMEOUT_SECONDS = 1800;
/** `tools.exec.maxOutputChars` default. */
export const DEFAULT_EXEC_MAX_OUTPUT_CHARS = 200_000;

export interface ExecSettings {
  timeoutSeconds: number;
  maxOutputChars: number;
  /** `tools.exec.mode`: which commands run. */
  mode: ExecMode;
  /** `tools.exec.allowlist`: program patterns for mode "allowlist". */
  allowlist: readonly string[];
}

/**
 * `tools.exec` with defaults applied (timeoutSeconds 1800, maxOutputChars 200000, mode "full",
 * allowlist []).
 */
export function resolveExecSettings(config: OpenClawConfig | undefined): ExecSettings {
  const exec = config?.tools?.exec;
  return {
    timeoutSeconds: positive(exec?.timeoutSeconds) ?? DEFAULT_EXEC_TIMEOUT_SECONDS,
    maxOutputChars: positive(exec?.maxOutputChars) ?? DEFAULT_EXEC_MAX_OUTPUT_CHARS,
    mode: exec?.mode ?? "full",
    allowlist: exec?.allowlist ?? [],
  };
}

function positive(n: unknown): number | undefined {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined;
}
