// Which bootstrap files a session gets, by the kind of its session key.
import { parseSessionKey } from "../sessions/index.js";
import type { BootstrapFileName } from "./bootstrap-files.js";

/** How a session is treated when choosing bootstrap files. */
export type BootstrapSessionKind = "main" | "direct" | "subagent" | "group" | "cron";

/**
 * - sub-agent keys -> subagent (AGENTS.md and TOOLS.md only);
 * - cron keys -> cron;
 * - group, channel and forum-topic keys, and threads inside them -> group (never MEMORY.md);
 * - per-peer direct-message keys -> direct (everything but MEMORY.md, which only the main
 *   session gets; with `session.dmScope: "main"` DMs share the main session and get it);
 * - anything else (the main key) -> main (every file).
 */
export function classifySessionKey(sessionKey: string): BootstrapSessionKind {
  const parsed = parseSessionKey(sessionKey.trim());
  const kind = parsed.kind === "thread" ? (parsed.baseKind ?? "unknown") : parsed.kind;
  if (kind === "subagent" || (parsed.subagentPath?.length ?? 0) > 0) return "subagent";
  if (kind === "cron") return "cron";
  if (kind === "group" || kind === "channel" || kind === "topic") return "group";
  if (kind === "direct") return "direct";
  return "main";
}

const ALLOWED: Record<Exclude<BootstrapSessionKind, "main">, ReadonlySet<BootstrapFileName>> = {
  subagent: new Set(["AGENTS.md", "TOOLS.md"]),
  cron: new Set(["AGENTS.md", "TOOLS.md", "SOUL.md", "IDENTITY.md", "USER.md"]),
  group: new Set(["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md"]),
  direct: new Set(["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md"]),
};

/** The file only heartbeat runs get, whatever the session kind. */
export const HEARTBEAT_FILE_NAME = "HEARTBEAT.md";

/**
 * Whether a bootstrap file is given to sessions of this kind (main sessions get every file).
 * HEARTBEAT.md is given only to heartbeat runs (`heartbeat: true`), and then only in sessions
 * whose kind allows it.
 */
export function fileAllowedForSession(name: BootstrapFileName, kind: BootstrapSessionKind, run: { heartbeat?: boolean } = {}): boolean {
  if (name === HEARTBEAT_FILE_NAME && run.heartbeat !== true) return false;
  return kind === "main" ? true : ALLOWED[kind].has(name);
}

/**
 * Whether a session's prompt gets today's and yesterday's daily notes (`memory/YYYY-MM-DD.md`):
 * the main session and direct-message sessions (and threads in them) do; group, channel, cron,
 * sub-agent and any other sessions do not (like MEMORY.md, the notes may hold private things).
 */
export function getsDailyNotes(sessionKey: string): boolean {
  const parsed = parseSessionKey(sessionKey.trim());
  const kind = parsed.kind === "thread" ? parsed.baseKind : parsed.kind;
  return kind === "main" || kind === "direct";
}
