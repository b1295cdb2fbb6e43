// A real AgentRuntime behind a MessageQueue, against the fake OpenAI server on 127.0.0.1.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, beforeEach, expect } from "vitest";
import { AgentRuntime, type AgentEvent } from "../../src/agent/index.js";
import { createConfigRegistry, validateConfig, type OpenClawConfig } from "../../src/config/index.js";
import { MessageQueue, type MessageQueueOptions, type SubmitOutcome } from "../../src/queue/index.js";
import type { AgentTool } from "../../src/tools/index.js";

export const SESSION = "agent:main:telegram:direct:42";

/** A tool that finishes only when the test opens its gate: lets a message arrive while a tool really runs. */
const gates = new Map<string, { open: () => void; opened: Promise<void> }>();
export function gate(id: string) {
  let entry = gates.get(id);
  if (!entry) {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    entry = { open, opened };
    gates.set(id, entry);
  }
  return entry;
}
const gateTool: AgentTool = {
  name: "gate",
  description: "Waits until the test opens the named gate.",
  parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  groups: [],
  execute: async (args) => {
    const id = (args as { id: string }).id;
    await gate(id).opened;
    return { content: `gate ${id} passed` };
  },
};

/** Calls `fn` on the first event of `type`. */
export const onFirst = (type: AgentEvent["type"], fn: () => void) => {
  let done = false;
  return (event: AgentEvent) => {
    if (event.type === type && !done) {
      done = true;
      fn();
    }
  };
};

export function expectKind<K extends SubmitOutcome["kind"]>(outcome: SubmitOutcome, kind: K): Extract<SubmitOutcome, { kind: K }> {
  expect(outcome.kind).toBe(kind);
  return outcome as Extract<SubmitOutcome, { kind: K }>;
}

/** Registers per-test setup and teardown; call once at the top of a test file. */
export function useQueueHarness() {
  let stateDir = "";
  let fake: FakeModelServer | undefined;
  let runtime: AgentRuntime | undefined;
  let queue: MessageQueue | undefined;

  beforeEach(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-queue-"));
    fake = await startFakeOpenAI();
    gates.clear();
  });
  afterEach(async () => {
    await queue?.close({ timeoutMs: 2000 });
    queue = undefined;
    await runtime?.close();
    runtime = undefined;
    await fake?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  const makeConfig = (raw: Record<string, unknown>): OpenClawConfig => {
    const result = validateConfig(
      {
        agents: { defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws") } },
        models: {
          providers: { local: { api: "openai-completions", baseUrl: fake!.baseUrl, apiKey: "k", models: [{ id: "fake-model" }] } },
        },
        ...raw,
      },
      createConfigRegistry(),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return result.config;
  };

  return {
    get fake(): FakeModelServer {
      return fake!;
    },
    get stateDir(): string {
      return stateDir;
    },
    /** A runtime (with the gate tool) and a queue in front of it; both are closed after the test. */
    setup(raw: Record<string, unknown> = {}, options: Partial<MessageQueueOptions> = {}) {
      const config = makeConfig(raw);
      const rt = new AgentRuntime({
        config,
        paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
        env: { HOME: stateDir },
        extraTools: () => [gateTool],
      });
      runtime = rt;
      const q = new MessageQueue({ run: (request) => rt.runTurn(request), config, logger: { warn: () => {} }, ...options });
      queue = q;
      return { rt, q };
    },
    /** The user message each model call ended with. */
    lastUserTexts(): string[] {
      return fake!.requests.map((r) => {
        const users = (r.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === "user");
        return users[users.length - 1]!.content;
      });
    },
  };
}
