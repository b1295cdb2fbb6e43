// An agent runtime whose only model is a fake model server (`local/fake-model`), in a temporary state folder.
import path from "node:path";
import { AgentRuntime } from "../../src/agent/index.js";
import { createConfigRegistry, validateConfig } from "../../src/config/index.js";

export interface FakeModelRuntimeOptions {
  stateDir: string;
  /** The fake server's `baseUrl`. */
  baseUrl: string;
  /** Default "openai-completions". */
  api?: "openai-completions" | "anthropic-messages";
  /** The model's configured `contextWindow` (default: none configured). */
  contextWindow?: number;
  /** Merged into the config (e.g. `tools`). */
  extra?: Record<string, unknown>;
}

/** A runtime on `local/fake-model` with its workspace in `<stateDir>/ws` and no bootstrap files. */
export function fakeModelRuntime(options: FakeModelRuntimeOptions): AgentRuntime {
  const { stateDir } = options;
  const model = { id: "fake-model", ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}) };
  const result = validateConfig(
    {
      agents: { defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws"), skipBootstrap: true } },
      models: {
        providers: { local: { api: options.api ?? "openai-completions", baseUrl: options.baseUrl, apiKey: "k", models: [model] } },
      },
      ...options.extra,
    },
    createConfigRegistry(),
  );
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return new AgentRuntime({
    config: result.config,
    paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
    env: { HOME: stateDir },
  });
}
