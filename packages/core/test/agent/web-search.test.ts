// A default agent is offered web_search, calls it, and gets the provider's results back; the
// tool's schema is counted by `openclaw context --detail`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeModelServer, type FakeWebSearch, startFakeOpenAI, startFakeWebSearch } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentRuntime } from "../../src/agent/index.js";
import { createConfigRegistry, validateConfig } from "../../src/config/index.js";
import { runCli } from "../helpers/cli.js";

let stateDir: string;
let llm: FakeModelServer;
let search: FakeWebSearch;
let runtime: AgentRuntime | undefined;

beforeEach(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-web-search-"));
  llm = await startFakeOpenAI();
  search = await startFakeWebSearch();
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  await Promise.all([llm.close(), search.close()]);
  rmSync(stateDir, { recursive: true, force: true });
});

const rawConfig = () => ({
  agents: { defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws") } },
  models: { providers: { local: { api: "openai-completions", baseUrl: llm.baseUrl, apiKey: "k", models: [{ id: "fake-model" }] } } },
  tools: { web: { search: { brave: { baseUrl: search.baseUrls.brave } } } },
});

describe("web_search in an agent run", () => {
  it("is offered to a default agent and answers with the provider's results, the key taken from the gateway's environment", async () => {
    llm.enqueue(
      [{ toolCall: { name: "web_search", arguments: { query: "otters hold hands", count: 3 } } }],
      [{ text: "They hold hands." }],
    );
    const result = validateConfig(rawConfig(), createConfigRegistry());
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    runtime = new AgentRuntime({
      config: result.config,
      paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
      env: { HOME: stateDir, BRAVE_API_KEY: search.keys.brave },
    });
    const turn = await runtime.runTurn({ message: "why do otters hold hands?" });
    expect(turn.status).toBe("ok");

    const offered = llm.requests[0]!.body.tools as Array<{ function: { name: string; parameters: { properties: object } } }>;
    const tool = offered.find((t) => t.function.name === "web_search");
    expect(tool?.function.parameters.properties).toHaveProperty("query");

    expect(search.requestsFor("brave")).toHaveLength(1);
    expect(search.requestsFor("brave")[0]!.query).toMatchObject({ q: "otters hold hands", count: "3" });
    const toolMsg = llm.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolMsg.content).toContain("https://www.example.org/otters-hold-hands");
  });
});

describe("openclaw context --detail", () => {
  it("counts web_search's schema among the session's tools, and drops it when the policy denies it", async () => {
    const home = path.join(stateDir, "home");
    mkdirSync(path.join(home, ".openclaw"), { recursive: true });
    const configFile = path.join(home, ".openclaw", "openclaw.json");
    writeFileSync(configFile, JSON.stringify(rawConfig()));
    type Detail = { tools: Array<{ name: string; schemaChars: number; totalChars: number }>; toolsTotalChars: number };
    const run = async () => {
      const out = await runCli(["context", "--detail", "--json"], { home });
      expect(out.code, out.stderr).toBe(0);
      return JSON.parse(out.stdout) as Detail;
    };

    const detail = await run();
    const row = detail.tools.find((t) => t.name === "web_search");
    expect(row).toBeDefined();
    expect(row!.schemaChars).toBeGreaterThan(100);
    expect(row!.totalChars).toBeGreaterThan(row!.schemaChars);

    writeFileSync(configFile, JSON.stringify({ ...rawConfig(), tools: { deny: ["web_search"] } }));
    const denied = await run();
    expect(denied.tools.map((t) => t.name)).not.toContain("web_search");
    expect(denied.tools.map((t) => t.name)).toContain("web_fetch");
    expect(denied.toolsTotalChars).toBe(detail.toolsTotalChars - row!.totalChars);
  });
});
