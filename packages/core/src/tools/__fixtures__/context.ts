// Test support for the tools and memory tests: real temp folders and a validated config.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createConfigRegistry, validateConfig, type OpenClawConfig } from "../../config/index.js";
import type { ToolContext } from "../../tool-contract/index.js";

export interface TestSandbox {
  /** Temp root holding everything below. */
  root: string;
  /** The workspace (realpath'd). */
  ws: string;
  /** A folder outside the workspace, for escape tests. */
  outside: string;
  stateDir: string;
  cleanup(): void;
}

export function makeSandbox(): TestSandbox {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "oc-tools-")));
  const ws = path.join(root, "workspace");
  const outside = path.join(root, "outside");
  const stateDir = path.join(root, "state");
  for (const d of [ws, outside, stateDir]) mkdirSync(d, { recursive: true });
  return { root, ws, outside, stateDir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A config validated by the real schema (defaults applied); throws on a bad fixture. */
export function makeConfig(raw: Record<string, unknown> = {}): OpenClawConfig {
  const result = validateConfig(raw, createConfigRegistry());
  if (!result.ok) throw new Error(JSON.stringify(result.problems, null, 2));
  return result.config;
}

export function makeCtx(box: TestSandbox, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    workspaceDir: box.ws,
    agentId: "main",
    sessionKey: "agent:main:main",
    signal: new AbortController().signal,
    config: makeConfig(),
    stateDir: box.stateDir,
    ...overrides,
  };
}
