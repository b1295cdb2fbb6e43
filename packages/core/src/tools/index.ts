// Public surface of the tools concern: the tool contract, the built-in tools, the workspace path
// guard, the tool policy (profiles, groups, allow/deny) and schema size accounting. Other folders
// import from here only.
export type { AgentTool, ToolContext, ToolResult } from "../tool-contract/index.js";
export { defineTool, toParameters, ToolError, type ToolDefinition } from "../tool-contract/index.js";
export {
  resolveInWorkspace,
  WorkspacePathError,
  type ResolveInWorkspaceOptions,
  type ResolvedWorkspacePath,
  type WorkspacePathReason,
} from "./workspace-path.js";
export { createBuiltinTools, type BuiltinToolsOptions } from "./builtin.js";
export { createReadTool, READ_DEFAULT_LIMIT, READ_MAX_CHARS } from "./fs/read.js";
export { createWriteTool } from "./fs/write.js";
export { createEditTool } from "./fs/edit.js";
export { createApplyPatchTool } from "./apply-patch/tool.js";
export { isApplyPatchAllowed, isOpenAiModel, applyPatchWorkspaceOnly } from "./apply-patch/gate.js";
export { parsePatch, PatchParseError, type PatchHunk, type UpdateChunk } from "./apply-patch/parse.js";
export { createExecTool } from "./exec/exec-tool.js";
export { createProcessTool, MAX_POLL_WAIT_MS } from "./exec/process-tool.js";
export { createProcessRegistry, ProcessRegistry, BackgroundJob, type JobStatus, type StartJobOptions } from "./exec/registry.js";
export { resolveExecSettings, DEFAULT_EXEC_TIMEOUT_SECONDS, DEFAULT_EXEC_MAX_OUTPUT_CHARS, type ExecSettings } from "./exec/settings.js";
export { createWebFetchTool, type WebFetchToolOptions } from "./web/web-fetch-tool.js";
export { resolveWebFetchSettings, WEB_FETCH_DEFAULTS, type WebFetchSettings } from "./web/settings.js";
export { classifyAddress } from "./web/ip-guard.js";
export { createBrowserTool, type BrowserToolOptions } from "./browser/browser-tool.js";
export { BrowserManager, browserProfileDir, sharedBrowserManager, type BrowserManagerOptions } from "./browser/manager.js";
export type { IdleTimers, TabInfo } from "./browser/session.js";
export { resolveBrowserSettings, BROWSER_DEFAULTS, type BrowserSettings } from "./browser/settings.js";
export { findChromiumOnPath, resolveChromiumExecutable, CHROMIUM_NAMES } from "./browser/executable.js";
export { createWebSearchTool, type WebSearchToolOptions } from "./web-search/web-search-tool.js";
export { createSearchCache, type SearchCache } from "./web-search/cache.js";
export type { SearchResponse, SearchResult } from "./web-search/types.js";
export type { HostResolver } from "./web/http-get.js";
export { createMemorySearchTool, createMemoryGetTool } from "./memory-tools.js";
export { createCronTool, type CronToolHost } from "./cron-tool.js";
export {
  createGatewayTool,
  gatewayToolsFor,
  isOwnerMainSession,
  type ConfigReloadReport,
  type GatewayToolHost,
} from "./gateway/index.js";
export { TOOL_GROUPS, TOOL_PROFILES, TOOL_ALIASES, type ToolProfile } from "./policy/groups.js";
export {
  resolveToolPolicy,
  filterTools,
  evaluateTool,
  isToolAllowed,
  entryMatches,
  type ToolPolicy,
  type ToolPolicyLayer,
  type ToolDecision,
  type PolicySubject,
} from "./policy/policy.js";
export { toolSchemaSizes, type ToolSchemaSize } from "./schema-sizes.js";
