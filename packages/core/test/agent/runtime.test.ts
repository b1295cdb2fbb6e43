import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentRuntime, type AgentEvent } from "../../src/agent/index.js";
import { createConfigRegistry, validateConfig, type OpenClawConfig } from "../../src/config/index.js";
import { openAgentStoreReadOnly } from "../../src/sessions/index.js";

let stateDir: string;
let fake: FakeModelServer;
let runtime: AgentRuntime | undefined;

function makeConfig(raw: Record<string, unknown>): OpenClawConfig {
  const result = validateConfig(raw, createConfigRegistry());
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

function makeRuntime(raw: Record<string, unknown> = {}) {
  const config = makeConfig({
    agents: { defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws") } },
    models: { providers: { local: { api: "openai-completions", baseUrl: fake.baseUrl, apiKey: "k", models: [{ id: "fake-model" }] } } },
    ...raw,
  });
  runtime = new AgentRuntime({ config, paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") }, env: { HOME: stateDir } });
  return runtime;
}

beforeEach(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-runtime-"));
  fake = await startFakeOpenAI();
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  await fake.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe("AgentRuntime", () => {
  it("streams a reply, runs a tool, feeds the result back, and records the turn", async () => {
    fake.enqueue(
      [{ text: "Let me write that." }, { toolCall: { name: "write", arguments: { path: "note.txt", content: "hello file" } } }],
      [{ text: "Done: note.txt holds hello file." }],
    );
    const rt = makeRuntime();
    const events: AgentEvent[] = [];
    const result = await rt.runTurn({ message: "write hello file to note.txt", onEvent: (e) => events.push(e) });
    expect(result.status).toBe("ok");
    expect(result.text).toBe("Done: note.txt holds hello file.");
    expect(readFileSync(path.join(stateDir, "ws", "note.txt"), "utf8")).toBe("hello file");

    const types = events.map((e) => e.type);
    expect(types[0]).toBe("run_start");
    expect(types).toContain("tool_start");
    expect(types.indexOf("tool_end")).toBeGreaterThan(types.indexOf("tool_start"));
    expect(types.slice(-2)).toEqual(["final", "run_end"]);
    expect(
      events
        .filter((e) => e.type === "text_delta")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe("Let me write that.Done: note.txt holds hello file.");

    // The second model call saw the tool result, paired with its call.
    const second = fake.requests[1]!.body;
    const toolMsg = second.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolMsg.content).toContain("note.txt");
    const system = second.messages[0];
    expect(system.role).toBe("system");
    expect(system.content).toContain("# Project Context");
    expect(system.content).toContain(path.join(stateDir, "ws"));

    const reader = openAgentStoreReadOnly({ stateDir, agentId: "main" })!;
    const events2 = reader.readEvents(result.sessionId).map((e) => e.event as { type: string; message?: { role: string } });
    reader.close();
    expect(events2.map((e) => e.message?.role ?? e.type)).toEqual(["session", "user", "assistant", "toolResult", "assistant"]);
  });

  it("keeps history across turns of the same session", async () => {
    const rt = makeRuntime();
    await rt.runTurn({ message: "first" });
    await rt.runTurn({ message: "second" });
    const roles = fake
      .lastRequest()!
      .body.messages.map((m: { role: string; content: string }) => `${m.role}:${m.role === "system" ? "" : m.content}`);
    expect(roles.slice(1)).toEqual(["user:first", "assistant:first", "user:second"]);
  });

  it("/new starts a new session and keeps the old one", async () => {
    const rt = makeRuntime();
    const one = await rt.runTurn({ message: "remember me" });
    const reset = await rt.runTurn({ message: "/new" });
    expect(reset.text).toContain("new session");
    expect(reset.sessionId).not.toBe(one.sessionId);
    await rt.runTurn({ message: "hello again" });
    const msgs = fake.lastRequest()!.body.messages.filter((m: { role: string }) => m.role !== "system");
    expect(msgs).toEqual([{ role: "user", content: "hello again" }]);
  });

  it("answers with how to configure a model when none is configured", async () => {
    const config = makeConfig({ agents: { defaults: { workspace: path.join(stateDir, "ws") } } });
    runtime = new AgentRuntime({ config, paths: { stateDir, configPath: "/x/openclaw.json" }, env: { HOME: stateDir } });
    const result = await runtime.runTurn({ message: "hi" });
    expect(result.status).toBe("error");
    expect(result.text).toContain("openclaw config set agents.defaults.model");
    expect(fake.requests.length).toBe(0);
  });

  it("reports a provider failure as a clear final message, without crashing", async () => {
    fake.enqueue([{ error: { status: 401 } }]);
    const rt = makeRuntime();
    const result = await rt.runTurn({ message: "hi" });
    expect(result.status).toBe("error");
    expect(result.error?.kind).toBe("auth");
    expect(result.text).toMatch(/^Sorry — the model provider failed \(authentication failed\)/);
    // The detail (with the fix) is kept for `openclaw status`, not put in the reply.
    expect(result.text).not.toContain("apiKey");
    expect(rt.recentErrors()).toEqual([expect.objectContaining({ category: "auth", kind: "auth", message: result.error?.message })]);
    expect(result.error?.message).toContain("apiKey");
  });

  it("falls back to the next model on 429 before any output", async () => {
    fake.enqueue([{ error: { status: 429, retryAfterSec: 1 } }], [{ text: "from the fallback" }]);
    const rt = makeRuntime({
      agents: {
        defaults: { model: { primary: "local/fake-model", fallbacks: ["local/other-model"] }, workspace: path.join(stateDir, "ws") },
      },
    });
    const events: AgentEvent[] = [];
    const result = await rt.runTurn({ message: "hi", onEvent: (e) => events.push(e) });
    expect(result.text).toBe("from the fallback");
    expect(fake.requests.map((r) => r.body.model)).toEqual(["fake-model", "other-model"]);
    expect(events.find((e) => e.type === "model")).toMatchObject({ ref: "local/other-model", attempt: 1 });
  });

  it("aborting stops the stream and reports aborted", async () => {
    fake.enqueue([{ text: "slow " }, { delayMs: 5000 }, { text: "never" }]);
    const rt = makeRuntime();
    const controller = new AbortController();
    const run = rt.runTurn({
      message: "hi",
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === "text_delta") controller.abort();
      },
    });
    const result = await run;
    expect(result.status).toBe("aborted");
  });

  it("NO_REPLY is silent", async () => {
    fake.enqueue([{ text: "NO_REPLY" }]);
    const rt = makeRuntime();
    const result = await rt.runTurn({ message: "chatter", sessionKey: "agent:main:telegram:group:-100" });
    expect(result.silent).toBe(true);
    expect(result.text).toBe("");
  });

  it("steering joins after the whole tool batch, before the next model call", async () => {
    fake.enqueue(
      [
        { toolCall: { name: "write", arguments: { path: "a.txt", content: "A" } } },
        { toolCall: { name: "write", arguments: { path: "b.txt", content: "B" } } },
      ],
      [{ text: "ok" }],
    );
    const rt = makeRuntime();
    let steered = false;
    const result = await rt.runTurn({
      message: "write two files",
      drainSteering: () => (steered ? [] : ((steered = true), ["also, be brief"])),
    });
    expect(result.status).toBe("ok");
    expect(existsSync(path.join(stateDir, "ws", "a.txt")) && existsSync(path.join(stateDir, "ws", "b.txt"))).toBe(true);
    const msgs = fake.requests[1]!.body.messages.map((m: { role: string }) => m.role);
    expect(msgs.slice(-4)).toEqual(["assistant", "tool", "tool", "user"]);
  });

  it("file tools cannot leave the workspace", async () => {
    writeFileSync(path.join(stateDir, "secret.txt"), "top secret");
    fake.enqueue([{ toolCall: { name: "read", arguments: { path: "../secret.txt" } } }], [{ text: "ok" }]);
    const rt = makeRuntime();
    await rt.runTurn({ message: "read it" });
    const toolMsg = fake.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolMsg.content).not.toContain("top secret");
  });
});

describe("session tools", () => {
  it("sessions_spawn runs a sub-agent with the minimal prompt and only AGENTS.md and TOOLS.md", async () => {
    fake.enqueue(
      [{ toolCall: { name: "sessions_spawn", arguments: { task: "count to three" } } }],
      [{ text: "one two three" }],
      [{ text: "The sub-agent said: one two three" }],
    );
    const rt = makeRuntime();
    writeFileSync(path.join(stateDir, "ws-memory.txt"), "");
    const result = await rt.runTurn({ message: "delegate counting" });
    expect(result.text).toBe("The sub-agent said: one two three");
    const subSystem = fake.requests[1]!.body.messages[0].content as string;
    expect(subSystem).toContain("AGENTS.md");
    expect(subSystem).toContain("TOOLS.md");
    expect(subSystem).not.toContain("SOUL.md");
    expect(subSystem).not.toContain("## Recent memory");
    const reader = openAgentStoreReadOnly({ stateDir, agentId: "main" })!;
    expect(reader.listSessions().some((s) => s.key.includes(":subagent:"))).toBe(true);
    reader.close();
  });

  it("agent-to-agent tools are refused unless tools.agentToAgent allows the target", async () => {
    fake.enqueue([{ toolCall: { name: "sessions_send", arguments: { agentId: "ops", message: "hi" } } }], [{ text: "ok" }]);
    const rt = makeRuntime({
      agents: {
        defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws") },
        entries: { main: { default: true }, ops: {} },
      },
    });
    await rt.runTurn({ message: "ask ops" });
    const toolMsg = fake.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolMsg.content).toContain("tools.agentToAgent");
    await rt.close();

    fake.enqueue(
      [{ toolCall: { name: "sessions_send", arguments: { agentId: "ops", message: "status?" } } }],
      [{ text: "ops is fine" }],
      [{ text: "ops says fine" }],
    );
    const rt2 = makeRuntime({
      agents: {
        defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws") },
        entries: { main: { default: true }, ops: {} },
      },
      tools: { agentToAgent: { enabled: true, allow: ["ops"] } },
    });
    const res = await rt2.runTurn({ message: "ask ops again", sessionKey: "agent:main:direct:u2" });
    expect(res.text).toBe("ops says fine");
  });
});

describe("skills and resets in a run", () => {
  it("the model can read an eligible skill's SKILL.md outside the workspace, with {baseDir} filled in, and exec sees the skill's env", async () => {
    const skillDir = path.join(stateDir, "skills", "weather");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(
      path.join(skillDir, "SKILL.md"),
      "---\nname: weather\ndescription: Look up the weather.\nmetadata:\n  openclaw:\n    primaryEnv: WEATHER_KEY\n---\nRun {baseDir}/fetch.sh\n",
    );
    fake.enqueue(
      [
        { toolCall: { name: "read", arguments: { path: "~/skills/weather/SKILL.md" } } },
        { toolCall: { name: "exec", arguments: { command: "echo key=$WEATHER_KEY" } } },
      ],
      [{ text: "ok" }],
    );
    const rt = makeRuntime({ skills: { entries: { weather: { apiKey: "sekret" } } } });
    await rt.runTurn({ message: "weather?" });
    const system = fake.requests[0]!.body.messages[0].content as string;
    expect(system).toContain("~/skills/weather/SKILL.md"); // HOME is the state dir in these tests
    const tools = fake.requests[1]!.body.messages.filter((m: { role: string }) => m.role === "tool").map(
      (m: { content: string }) => m.content,
    );
    expect(tools.join("\n")).toContain(`Run ${skillDir}/fetch.sh`);
    expect(tools.join("\n")).toContain("key=sekret");
  });

  it("applies session.reset: an idle session starts over on the next message", async () => {
    let now = Date.parse("2026-11-29T10:00:00Z");
    const config = makeConfig({
      agents: { defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws") } },
      models: { providers: { local: { api: "openai-completions", baseUrl: fake.baseUrl, apiKey: "k", models: [{ id: "fake-model" }] } } },
      session: { reset: { mode: "idle", idleMinutes: 30 } },
    });
    runtime = new AgentRuntime({
      config,
      paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
      env: { HOME: stateDir },
      now: () => new Date(now),
    });
    const first = await runtime.runTurn({ message: "one" });
    now += 10 * 60_000;
    const second = await runtime.runTurn({ message: "two" });
    expect(second.sessionId).toBe(first.sessionId);
    now += 45 * 60_000;
    const third = await runtime.runTurn({ message: "three" });
    expect(third.sessionId).not.toBe(first.sessionId);
  });
});
