// A runtime on a fresh state folder, talking to the fake OpenAI server, for tests through AgentRuntime.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { AgentRuntime, type AgentRuntimeOptions } from "../../src/agent/index.js";
import { createConfigRegistry, validateConfig, type OpenClawConfig } from "../../src/config/index.js";
import { openAgentStoreReadOnly } from "../../src/sessions/index.js";

export interface FakeRuntimeBox {
  stateDir: string;
  /** The default agent's workspace: `<stateDir>/ws`. */
  ws: string;
  fake: FakeModelServer;
  /** A runtime whose config is the fake provider `local/fake-model` merged (shallowly, per top-level key) with `raw`. */
  runtime(raw?: Record<string, unknown>, options?: Partial<AgentRuntimeOptions>): AgentRuntime;
  /** The stored transcript events of one session, in order. */
  storedEvents(sessionId: string, agentId?: string): { type: string; message?: { role?: string; toolCallId?: string } }[];
  close(): Promise<void>;
}

export function validConfig(raw: Record<string, unknown>): OpenClawConfig {
  const result = validateConfig(raw, createConfigRegistry());
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

/** The fake provider block: `models.providers.local` serving `fake-model` (and `extraModels`). */
export function fakeProviders(fake: FakeModelServer, extraModels: string[] = []): Record<string, unknown> {
  const models = ["fake-model", ...extraModels].map((id) => ({ id }));
  return { providers: { local: { api: "openai-completions", baseUrl: fake.baseUrl, apiKey: "k", models } } };
}

export async function startFakeRuntime(): Promise<FakeRuntimeBox> {
  const stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-agent-"));
  const fake = await startFakeOpenAI();
  const runtimes: AgentRuntime[] = [];
  const ws = path.join(stateDir, "ws");
  return {
    stateDir,
    ws,
    fake,
    runtime(raw = {}, options = {}) {
      const config = validConfig({
        agents: { defaults: { model: "local/fake-model", workspace: ws } },
        models: fakeProviders(fake),
        ...raw,
      });
      const rt = new AgentRuntime({
        config,
        paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
        env: { HOME: stateDir },
        ...options,
      });
      runtimes.push(rt);
      return rt;
    },
    storedEvents(sessionId, agentId = "main") {
      const reader = openAgentStoreReadOnly({ stateDir, agentId });
      if (!reader) return [];
      try {
        return reader.readEvents(sessionId).map((e) => e.event as { type: string; message?: { role?: string; toolCallId?: string } });
      } finally {
        reader.close();
      }
    },
    async close() {
      for (const rt of runtimes) await rt.close();
      await fake.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
