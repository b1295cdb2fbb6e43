// A small private classifier of session keys, used only to pick bootstrap files.
// TODO(lead): replace with sessionKind() from sessions/ once it lands.
import type { BootstrapFileName } from "./bootstrap-files.js";

/** How a session is treated when choosing bootstrap files. */
export type BootstrapSessionKind = "main" | "subagent" | "group" | "cron";

/**
 * - `...:subagent:...` -> subagent (checked first: sub-agents of group sessions are sub-agents);
 * - `cron:<job>` or `agent:<id>:cron:<job>` -> cron;
 * - `...:group:...` or `...:channel:...` -> group;
 * - anything else (main key, direct messages, unknown shapes) -> main.
 */
export function classifySessionKey(sessionKey: string): BootstrapSessionKind {
  const key = sessionKey.trim().toLowerCase();
  if (key.includes(":subagent:")) return "subagent";
  if (key.startsWith("cron:") || /^agent:[^:]+:cron:/.test(key)) return "cron";
  if (key.includes(":group:") || key.includes(":channel:")) return "group";
  return "main";
}

const ALLOWED: Record<Exclude<BootstrapSessionKind, "main">, ReadonlySet<BootstrapFileName>> = {
  subagent: new Set(["AGENTS.md", "TOOLS.md"]),
  cron: new Set(["AGENTS.md", "TOOLS.md", "SOUL.md", "IDENTITY.md", "USER.md"]),
  group: new Set(["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md"]),
};

/** Whether a bootstrap file is given to sessions of this kind (main sessions get every file). */
export function fileAllowedForSession(name: BootstrapFileName, kind: BootstrapSessionKind): boolean {
  return kind === "main" ? true : ALLOWED[kind].has(name);
}
