// A turn run again after a crash (the same inbox keys): the user's text is recorded once, an
// answer already recorded is replayed without the model, a turn cut short continues.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentRuntime, type AgentEvent } from "../../src/agent/index.js";
import { createConfigRegistry, validateConfig } from "../../src/config/index.js";
import { openAgentStoreReadOnly } from "../../src/sessions/index.js";

let stateDir: string;
let fake: FakeModelServer;
let runtime: AgentRuntime;

const KEYS = ["telegram:default:42:10"];
const SESSION = "agent:main:telegram:direct:42";

beforeEach(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-resume-"));
  fake = await startFakeOpenAI();
  const result = validateConfig(
    {
      agents: { defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws"), skipBootstrap: true } },
      models: { providers: { local: { api: "openai-completions", baseUrl: fake.baseUrl, apiKey: "k", models: [{ id: "fake-model" }] } } },
    },
    createConfigRegistry(),
  );
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  runtime = new AgentRuntime({
    config: result.config,
    paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
    env: { HOME: stateDir },
  });
});
afterEach(async () => {
  await runtime.close();
  await fake.close();
  rmSync(stateDir, { recursive: true, force: true });
});

/** The session's transcript as role:text lines. */
function transcript(sessionId: string): string[] {
  const reader = openAgentStoreReadOnly({ stateDir, agentId: "main" })!;
  try {
    return reader
      .readEvents(sessionId)
      .map((e) => e.event as { type: string; message?: { role: string; content: unknown } })
      .filter((e) => e.type === "message")
      .map((e) => `${e.message!.role}:${typeof e.message!.content === "string" ? e.message!.content : JSON.stringify(e.message!.content)}`);
  } finally {
    reader.close();
  }
}

describe("a turn run again with the same inbox keys", () => {
  it("replays the recorded answer without calling the model or recording anything", async () => {
    fake.enqueue([{ text: "The answer." }]);
    const first = await runtime.runTurn({ sessionKey: SESSION, message: "question", inboundKeys: KEYS });
    const before = transcript(first.sessionId);
    const events: AgentEvent[] = [];
    const again = await runtime.runTurn({ sessionKey: SESSION, message: "question", inboundKeys: KEYS, onEvent: (e) => events.push(e) });
    expect(fake.requests).toHaveLength(1);
    expect(again).toMatchObject({ status: "ok", text: "The answer.", silent: false, sessionId: first.sessionId });
    expect(events.filter((e) => e.type === "text_delta").map((e) => (e as { text: string }).text)).toEqual(["The answer."]);
    expect(events.find((e) => e.type === "final")).toEqual({ type: "final", text: "The answer.", silent: false });
    expect(transcript(first.sessionId)).toEqual(before);
  });

  it("continues a turn cut short before its answer, with the user's text once in the history", async () => {
    fake.enqueue([{ delayMs: 5_000 }, { text: "never" }], [{ text: "Here it is." }]);
    const controller = new AbortController();
    const cut = runtime.runTurn({ sessionKey: SESSION, message: "question", inboundKeys: KEYS, signal: controller.signal });
    await fake.waitForRequests(1);
    controller.abort();
    const aborted = await cut;
    expect(aborted.status).toBe("aborted");
    const again = await runtime.runTurn({ sessionKey: SESSION, message: "question", inboundKeys: KEYS });
    expect(again.text).toBe("Here it is.");
    const users = fake.requests[1]!.body.messages.filter((m: { role: string }) => m.role === "user");
    expect(users.map((m: { content: string }) => m.content)).toEqual(["question"]);
    expect(transcript(again.sessionId)).toEqual(["user:question", 'assistant:[{"type":"text","text":"Here it is."}]']);
  });

  it("ends silently when a later turn opened before this one answered", async () => {
    fake.enqueue([{ delayMs: 5_000 }, { text: "never" }], [{ text: "Answer to the second." }]);
    const controller = new AbortController();
    const cut = runtime.runTurn({ sessionKey: SESSION, message: "first", inboundKeys: KEYS, signal: controller.signal });
    await fake.waitForRequests(1);
    controller.abort();
    await cut;
    await runtime.runTurn({ sessionKey: SESSION, message: "second", inboundKeys: ["telegram:default:42:11"] });
    const again = await runtime.runTurn({ sessionKey: SESSION, message: "first", inboundKeys: KEYS });
    expect(again).toMatchObject({ status: "ok", text: "", silent: true });
    expect(fake.requests).toHaveLength(2);
  });

  it("different keys, or no keys, are new turns", async () => {
    fake.enqueue([{ text: "one" }], [{ text: "two" }], [{ text: "three" }]);
    await runtime.runTurn({ sessionKey: SESSION, message: "same words", inboundKeys: KEYS });
    await runtime.runTurn({ sessionKey: SESSION, message: "same words", inboundKeys: ["telegram:default:42:11"] });
    const third = await runtime.runTurn({ sessionKey: SESSION, message: "same words" });
    expect(third.text).toBe("three");
    expect(transcript(third.sessionId).filter((l) => l.startsWith("user:"))).toHaveLength(3);
  });
});
