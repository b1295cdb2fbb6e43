import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { makeTempHome, runCli } from "./helpers/cli.js";

let home: string;
let cleanup: () => void;
let fake: FakeModelServer;

beforeEach(async () => {
  ({ home, cleanup } = makeTempHome());
  fake = await startFakeOpenAI();
  mkdirSync(path.join(home, ".openclaw"), { recursive: true });
  writeFileSync(
    path.join(home, ".openclaw", "openclaw.json"),
    JSON.stringify({
      agents: { defaults: { model: "local/llama" } },
      models: { providers: { local: { baseUrl: fake.baseUrl, models: [{ id: "llama" }] } } },
    }),
  );
});
afterEach(async () => {
  await fake.close();
  cleanup();
});

it("openclaw agent --local streams a reply, uses a tool, and the turn shows in sessions show", async () => {
  fake.enqueue(
    [{ text: "Checking the workspace. " }, { toolCall: { name: "exec", arguments: { command: "echo from-the-shell" } } }],
    [{ text: "The shell said from-the-shell." }],
  );
  const run = await runCli(["agent", "--local", "--message", "run echo please"], { home });
  expect(run.stderr).toContain("[tool] exec");
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("Checking the workspace.");
  expect(run.stdout).toContain("The shell said from-the-shell.");
  // The model saw the tool's real output.
  const toolMsg = fake.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
  expect(toolMsg.content).toContain("from-the-shell");

  const show = await runCli(["sessions", "show", "main", "--json"], { home });
  expect(show.code, show.stderr).toBe(0);
  const text = show.stdout;
  expect(text).toContain("run echo please");
  expect(text).toContain("toolResult");
  expect(text).toContain("The shell said from-the-shell.");

  // The workspace was created on first use, with its bootstrap files.
  expect(readFileSync(path.join(home, ".openclaw", "workspace", "AGENTS.md"), "utf8").length).toBeGreaterThan(0);
});

it("--json prints the event stream as JSON lines", async () => {
  fake.enqueue([{ text: "hello" }]);
  const run = await runCli(["agent", "--local", "-m", "hi", "--json"], { home });
  const events = run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(events[0].type).toBe("run_start");
  expect(events.at(-1).type).toBe("run_end");
  expect(events.find((e: { type: string }) => e.type === "final").text).toBe("hello");
});

it("with no model configured it answers how to configure one, without crashing", async () => {
  writeFileSync(path.join(home, ".openclaw", "openclaw.json"), "{}");
  const run = await runCli(["agent", "--local", "-m", "hi"], { home });
  expect(run.code).toBe(1);
  expect(run.stdout).toContain("openclaw config set agents.defaults.model");
});

it("without --local the turn goes to the running gateway and streams back", async () => {
  const { silentLogger } = await import("../src/gateway/index.js");
  const { startGatewayProcess: startGateway } = await import("../src/app/index.js");
  const stateDir = path.join(home, ".openclaw");
  const gateway = await startGateway({
    paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
    port: 0,
    token: "a-long-enough-test-token",
    plugins: [],
    log: silentLogger,
    env: { HOME: home },
  });
  try {
    fake.enqueue([{ text: "answered by the gateway" }]);
    const run = await runCli(["agent", "-m", "hi", "--url", gateway.url, "--token", "a-long-enough-test-token"], { home });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("answered by the gateway");
  } finally {
    await gateway.stop({ timeoutMs: 2000 });
  }
  const noGateway = await runCli(["agent", "-m", "hi", "--url", "ws://127.0.0.1:9"], { home });
  expect(noGateway.code).toBe(1);
  expect(noGateway.stderr).toContain("openclaw gateway");
});
