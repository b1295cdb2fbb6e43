import type { OpenClawConfig } from "../config/index.js";
import { isApplyPatchAllowed } from "./apply-patch/gate.js";
import { createApplyPatchTool } from "./apply-patch/tool.js";
import { createBrowserTool } from "./browser/browser-tool.js";
import { createCronTool, type CronToolHost } from "./cron-tool.js";
import type { BrowserManager } from "./browser/manager.js";
import { createExecTool } from "./exec/exec-tool.js";
import { createProcessTool } from "./exec/process-tool.js";
import { createProcessRegistry, type ProcessRegistry } from "./exec/registry.js";
import { createEditTool } from "./fs/edit.js";
import { createReadTool } from "./fs/read.js";
import { createWriteTool } from "./fs/write.js";
import { createMemoryGetTool, createMemorySearchTool } from "./memory-tools.js";
import type { AgentTool } from "../tool-contract/index.js";
import type { HostResolver } from "./web/http-get.js";
import { createWebFetchTool } from "./web/web-fetch-tool.js";
import { createWebSearchTool } from "./web-search/web-search-tool.js";

export interface BuiltinToolsOptions {
  /** Decides whether apply_patch is offered (`tools.exec.applyPatch`). */
  config?: OpenClawConfig;
  /** `"provider/model"` of the run's model; apply_patch is offered only to allowed models. */
  modelRef?: string;
  /** Background exec jobs; a new registry when omitted. Pass one per agent run and dispose it at the end. */
  processes?: ProcessRegistry;
  /** Environment web_search reads API keys and SEARXNG_URL from when the config has none (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** DNS resolver for web_fetch (default `dns.lookup`). */
  resolveHost?: HostResolver;
  /** Owner of the agents' browsers for the browser tool (default: one process-wide manager). */
  browsers?: BrowserManager;
  /** The running gateway's cron scheduler for the cron tool (default: none; jobs go to the state database). */
  cron?: CronToolHost;
}

/**
 * The built-in tools, in prompt order: read, write, edit, apply_patch (only when
 * {@link isApplyPatchAllowed} for `modelRef`), exec, process, web_search, web_fetch, browser, memory_search,
 * memory_get, cron. Session, agent and messaging tools are added by their owners. Apply the tool
 * policy afterwards with `filterTools(tools, resolveToolPolicy(config, agentId))`.
 */
export function createBuiltinTools(options: BuiltinToolsOptions = {}): AgentTool[] {
  const processes = options.processes ?? createProcessRegistry();
  const tools: AgentTool[] = [createReadTool(), createWriteTool(), createEditTool()];
  if (isApplyPatchAllowed(options.config, options.modelRef)) tools.push(createApplyPatchTool());
  tools.push(
    createExecTool(processes),
    createProcessTool(processes),
    createWebSearchTool(options.env ? { env: options.env } : {}),
    createWebFetchTool(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    createBrowserTool(options.browsers ? { manager: options.browsers } : {}),
    createMemorySearchTool(),
    createMemoryGetTool(),
    createCronTool(options.cron),
  );
  return tools;
}
