/**
 * Keys and values of the reference OpenClaw config that this version does not support. Validation
 * refuses them with these messages (rather than a bare "unknown key"), so a config written for
 * the reference is never silently half-applied.
 */
interface Unsupported {
  /** Dotted path; `*` stands for any one segment. */
  path: string;
  message: string;
  fix: string;
}

const NO_APPROVALS =
  "exec approvals are not supported: this version has no approval prompts; a command either runs or is refused by tools.exec.mode.";
const LIMIT_EXEC =
  'remove it; to limit commands set tools.exec.mode: "allowlist" with tools.exec.allowlist, or turn exec off with tools.exec.mode: "deny".';

const KEYS: readonly Unsupported[] = [
  {
    path: "tools.exec.security",
    message: "is the reference's older exec approval key; this version has tools.exec.mode instead.",
    fix: 'replace it with tools.exec.mode ("full", "allowlist" or "deny"): security "full" with ask "off" is mode "full", security "deny" is mode "deny".',
  },
  { path: "tools.exec.ask", message: NO_APPROVALS, fix: LIMIT_EXEC },
  { path: "tools.exec.askFallback", message: NO_APPROVALS, fix: LIMIT_EXEC },
  { path: "tools.exec.strictInlineEval", message: NO_APPROVALS, fix: LIMIT_EXEC },
  { path: "tools.exec.reviewer", message: NO_APPROVALS, fix: LIMIT_EXEC },
  { path: "tools.exec.approvalRunningNoticeMs", message: NO_APPROVALS, fix: "remove it." },
  { path: "tools.exec.commandHighlighting", message: NO_APPROVALS, fix: "remove it." },
  { path: "tools.exec.grantExpiryDays", message: NO_APPROVALS, fix: "remove it." },
  ...["safeBins", "safeBinTrustedDirs", "safeBinProfiles"].map((key) => ({
    path: `tools.exec.${key}`,
    message: "safe bins are not supported.",
    fix: 'remove it; list the programs in tools.exec.allowlist and set tools.exec.mode: "allowlist".',
  })),
  ...["host", "node"].map((key) => ({
    path: `tools.exec.${key}`,
    message: "running exec in a sandbox or on a paired node is not supported; commands always run on the gateway's host.",
    fix: "remove it.",
  })),
  {
    path: "tools.exec.pathPrepend",
    message: "is not supported; commands get the gateway's own PATH.",
    fix: "remove it and put the folders on the PATH of the environment the gateway starts in.",
  },
  {
    path: "tools.exec.notifyOnExit",
    message: "is not supported: nothing is announced when a background job ends; the model follows jobs with the process tool.",
    fix: "remove it.",
  },
  {
    path: "agents.entries.*.tools.exec",
    message: "per-agent exec settings are not supported; every agent uses tools.exec.",
    fix: 'move the settings to tools.exec, or take exec away from this agent with agents.entries.<id>.tools.deny: ["exec"].',
  },
];

const VALUES: readonly (Unsupported & { values: readonly unknown[] })[] = [
  {
    path: "gateway.mode",
    values: ["remote"],
    message: "a remote gateway is not supported: this openclaw always runs its gateway on this machine.",
    fix: 'set gateway.mode to "local" (or remove it) and run openclaw on the machine that should host the gateway.',
  },
  {
    path: "tools.exec.mode",
    values: ["ask", "auto"],
    message: NO_APPROVALS,
    fix: 'use "allowlist" (with tools.exec.allowlist), "full" or "deny".',
  },
];

function pathMatches(pattern: string, path: readonly PropertyKey[]): boolean {
  const segments = pattern.split(".");
  return segments.length === path.length && segments.every((seg, i) => seg === "*" || seg === String(path[i]));
}

/** Why the key at `path` (which the schema does not know) is a reference key this version refuses, if it is one. */
export function unsupportedKey(path: readonly PropertyKey[]): { message: string; fix: string } | undefined {
  const found = KEYS.find((k) => pathMatches(k.path, path));
  return found && { message: found.message, fix: found.fix };
}

/** Why `value` at `path` is a reference value this version refuses, if it is one. */
export function unsupportedValue(path: readonly PropertyKey[], value: unknown): { message: string; fix: string } | undefined {
  const found = VALUES.find((v) => pathMatches(v.path, path) && v.values.includes(value));
  return found && { message: found.message, fix: found.fix };
}
