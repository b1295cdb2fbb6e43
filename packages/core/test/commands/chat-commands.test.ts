// The chat command handler over a real runtime and queue (the fake model server behind them):
// which messages it answers, which it leaves to the agent, and what /model changes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentRuntime } from "../../src/agent/index.js";
import { createChatCommands, type CommandInput } from "../../src/commands/index.js";
import { createConfigRegistry, validateConfig } from "../../src/config/index.js";
import { MessageQueue } from "../../src/queue/index.js";

let stateDir: string;
let fake: FakeModelServer;
let runtime: AgentRuntime;
let queue: MessageQueue;

const SESSION = "agent:main:telegram:direct:4242";
const input = (text: string, extra: Partial<CommandInput> = {}): CommandInput => ({
  text,
  chatKind: "direct",
  mentionsBot: false,
  agentId: "main",
  sessionKey: SESSION,
  channel: "telegram",
  ...extra,
});

function skill(name: string, frontmatter: string): void {
  const dir = path.join(stateDir, "ws", "skills", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\n${frontmatter}\n---\n\nDo ${name} things.\n`);
}

beforeEach(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-commands-"));
  fake = await startFakeOpenAI();
  const result = validateConfig(
    {
      agents: { defaults: { model: "local/llama", workspace: path.join(stateDir, "ws") } },
      models: {
        providers: {
          local: { baseUrl: fake.baseUrl, models: [{ id: "llama", contextWindow: 12000 }, { id: "qwen" }] },
        },
      },
    },
    createConfigRegistry(),
  );
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  runtime = new AgentRuntime({
    config: result.config,
    paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
    env: { HOME: stateDir },
  });
  queue = new MessageQueue({ run: (r) => runtime.runTurn(r), config: result.config });
});
afterEach(async () => {
  await queue.close({ timeoutMs: 1000 });
  await runtime.close();
  await fake.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe("chat commands", () => {
  it("leaves plain text, unknown /words, /new, /reset and /queue to the queue", async () => {
    const commands = createChatCommands({ runtime, queue });
    for (const text of ["hello", "/frobnicate now", "/new", "/reset hi", "/queue collect", "/status@other_bot"]) {
      expect(await commands.handle(input(text, { chatKind: "group" })), text).toBeUndefined();
    }
  });

  it("/help lists the commands and the user-invocable skills only", async () => {
    skill("release-notes", "description: Draft release notes from the git log");
    skill("internal-only", "description: Not for people\nuser-invocable: false");
    const reply = await createChatCommands({ runtime, queue }).handle(input("/help"));
    expect(reply?.kind).toBe("reply");
    for (const cmd of ["/status", "/context", "/model", "/stop", "/new", "/compact"]) expect(reply?.text).toContain(cmd);
    expect(reply?.text).toContain("/release_notes [request] - Draft release notes from the git log");
    expect(reply?.text).not.toContain("internal");
  });

  it("a skill command goes to the agent as a request to use that skill", async () => {
    skill("release-notes", "description: Draft release notes");
    skill("internal-only", "user-invocable: false");
    const commands = createChatCommands({ runtime, queue });
    const outcome = await commands.handle(input("/release_notes for v2.1"));
    expect(outcome?.kind).toBe("agent");
    expect(outcome?.text).toContain('"release-notes" skill');
    expect(outcome?.text).toContain(path.join(stateDir, "ws", "skills", "release-notes", "SKILL.md"));
    expect(outcome?.text).toMatch(/for v2\.1$/);
    expect(await commands.handle(input("/internal-only"))).toBeUndefined();
  });

  it("/compact runs the memory flush, summarizes the older turns, and refuses while a turn runs", async () => {
    const commands = createChatCommands({ runtime, queue });
    expect((await commands.handle(input("/compact")))?.text).toBe("Nothing to compact yet: the history is short.");
    await runtime.runTurn({ agentId: "main", sessionKey: SESSION, message: "/new" });
    // The session exists but has nothing to summarize: no memory flush turn either.
    expect((await commands.handle(input("/compact")))?.text).toBe("Nothing to compact yet: the history is short.");
    expect(fake.requests).toHaveLength(0);
    for (const text of ["my cat is called Mo", "I like tea", "what now?"])
      await runtime.runTurn({ agentId: "main", sessionKey: SESSION, message: text });
    const before = fake.requests.length;

    const outcome = await commands.handle(input("/compact"));
    expect(outcome?.kind).toBe("reply");
    // The older turns (from "my cat is called Mo" on) are summarized; the window is small next to this prompt, so little is kept.
    const [, summarized] =
      /^Compacted: (\d+) older message\(s\) are now a summary; \d+ recent message\(s\) kept\. Context about \d+ -> \d+ tokens\.$/.exec(
        outcome!.text,
      )!;
    expect(Number(summarized)).toBeGreaterThanOrEqual(5);
    const calls = fake.requests.slice(before).map((r) => JSON.stringify(r.body.messages));
    expect(calls).toHaveLength(2);
    expect(calls[0]).toContain("[Memory flush");
    expect(calls[1]).toContain("You maintain the running summary");
    // The summary call saw the older turns, the next turn sees the summary instead of them.
    expect(calls[1]).toContain("my cat is called Mo");
    await runtime.runTurn({ agentId: "main", sessionKey: SESSION, message: "and then?" });
    const next = fake
      .lastRequest()!
      .body.messages.map((m: { content: string }) => m.content)
      .join("\n");
    expect(next).toContain("The earlier part of this conversation was compacted");

    let open!: () => void;
    fake.enqueue([{ until: new Promise<void>((resolve) => (open = resolve)) }, { text: "slow answer" }]);
    const running = runtime.runTurn({ agentId: "main", sessionKey: SESSION, message: "take your time" });
    await fake.waitForRequests(fake.requests.length + 1);
    expect((await commands.handle(input("/compact")))?.text).toBe("A turn is running in this session; try again once it has answered.");
    open();
    expect((await running).text).toBe("slow answer");
  });

  it("/model validates against the configured providers and switches this session only", async () => {
    const commands = createChatCommands({ runtime, queue });
    expect((await commands.handle(input("/model")))?.text).toMatch(/^Model: local\/llama \(configured default\)/);
    expect((await commands.handle(input("/model nowhere/x")))?.text).toMatch(/"nowhere" is not a configured provider.*models\.providers/);
    expect((await commands.handle(input("/model local/gpt-9")))?.text).toMatch(/local has no model "gpt-9".*llama, qwen/);
    expect((await commands.handle(input("/model local/qwen")))?.text).toBe("This chat now uses local/qwen from the next turn on.");
    expect((await commands.handle(input("/model")))?.text).toMatch(/^Model: local\/qwen \(set for this chat\)/);

    fake.enqueue([{ text: "from qwen" }], [{ text: "from llama" }]);
    await runtime.runTurn({ agentId: "main", sessionKey: SESSION, message: "hi" });
    await runtime.runTurn({ agentId: "main", sessionKey: "agent:main:telegram:direct:7", message: "hi" });
    expect(fake.requests.map((r) => r.body.model)).toEqual(["qwen", "llama"]);

    expect((await commands.handle(input("/model default")))?.text).toBe("This chat is back on the configured model: local/llama.");
  });

  it("a /model choice whose model left the config falls back to the configured model", async () => {
    await createChatCommands({ runtime, queue }).handle(input("/model local/qwen"));
    await runtime.close();
    const result = validateConfig(
      {
        agents: { defaults: { model: "local/llama", workspace: path.join(stateDir, "ws") } },
        models: { providers: { local: { baseUrl: fake.baseUrl, models: [{ id: "llama" }] } } },
      },
      createConfigRegistry(),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    runtime = new AgentRuntime({
      config: result.config,
      paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
      env: { HOME: stateDir },
    });
    expect(runtime.sessionModel("main", SESSION)).toEqual({ ref: "local/llama", override: false });
    fake.enqueue([{ text: "llama again" }]);
    await runtime.runTurn({ agentId: "main", sessionKey: SESSION, message: "hi" });
    expect(fake.requests.map((r) => r.body.model)).toEqual(["llama"]);
  });

  it("/status shows the model, session, context use against the window, and the queue", async () => {
    const commands = createChatCommands({ runtime, queue });
    const before = (await commands.handle(input("/status")))?.text ?? "";
    expect(before).toContain(`Session: ${SESSION} (not started yet)`);
    expect(before).toContain("Context: no model call in this session yet");

    fake.enqueue([{ text: "ok" }]);
    await queue.submit({ agentId: "main", sessionKey: SESSION, text: "hello there" });
    const after = (await commands.handle(input("/status")))?.text ?? "";
    expect(after).toContain("Model: local/llama (configured default)");
    expect(after).toMatch(/Context: \d+ of 12000 tokens \(\d+%\) at the last model call/);
    expect(after).toMatch(/Queue: idle, 0 waiting\. Queue mode: steer/);

    // A model without a configured window (and not a known one) is measured against the default window.
    await commands.handle(input("/model local/qwen"));
    const assumed = (await commands.handle(input("/status")))?.text ?? "";
    expect(assumed).toMatch(/Context: \d+ of 16384 tokens \(\d+%\) at the last model call \(window assumed: no contextWindow configured/);
  });

  it("/stop aborts the running turn and says when nothing runs", async () => {
    const commands = createChatCommands({ runtime, queue });
    expect((await commands.handle(input("/stop")))?.text).toBe("Nothing is running in this chat.");
    fake.enqueue([{ text: "slow" }, { delayMs: 60_000 }, { text: " never" }]);
    const running = queue.submit({ agentId: "main", sessionKey: SESSION, text: "take your time" });
    await fake.waitForRequests(1);
    expect((await commands.handle(input("/status")))?.text).toMatch(/Queue: a turn is running/);
    expect((await commands.handle(input("/stop")))?.text).toBe("Stopped the running turn.");
    const outcome = await running;
    expect(outcome.kind === "ran" && outcome.result.status).toBe("aborted");
  });
});
