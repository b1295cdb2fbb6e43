/** Built-in tool groups usable in `allow` / `alsoAllow` / `deny` (`"group:fs"`). */
export const TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  "group:fs": ["read", "write", "edit", "apply_patch"],
  "group:runtime": ["exec", "process"],
  "group:web": ["web_search", "web_fetch"],
  "group:memory": ["memory_search", "memory_get"],
  "group:ui": ["browser"],
  "group:sessions": ["sessions_list", "sessions_history", "sessions_send", "sessions_spawn", "session_status"],
  "group:agents": ["agents_list"],
  "group:messaging": ["message"],
  "group:automation": ["cron", "gateway"],
};

export type ToolProfile = "minimal" | "coding" | "messaging" | "full";

/** What each `tools.profile` starts from; `full` (and no profile) means every tool. */
export const TOOL_PROFILES: Readonly<Record<Exclude<ToolProfile, "full">, readonly string[]>> = {
  minimal: ["session_status"],
  coding: ["group:fs", "group:runtime", "group:web", "group:sessions", "group:memory", "cron"],
  messaging: ["group:messaging", "group:sessions"],
};

/** Other spellings of tool names accepted in policy lists. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  bash: "exec",
  "apply-patch": "apply_patch",
};
