// A browser screenshot in an agent run reaches a vision model as an image and a text-only model
// as text: the whole path from the tool result through the agent loop to the request body.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeModelServer, startFakeOpenAI } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentRuntime } from "../../src/agent/index.js";
import { createConfigRegistry, validateConfig } from "../../src/config/index.js";
import { findChromiumOnPath } from "../../src/tools/index.js";

const chromium = process.env.CHROMIUM_PATH ?? findChromiumOnPath();
if (!chromium) console.warn("browser screenshot test skipped: Chromium is not installed; run scripts/install-chromium.sh");
const describeBrowser = chromium || process.env.CI ? describe : describe.skip;

let stateDir: string;
let llm: FakeModelServer;
let site: http.Server;
let siteUrl: string;
let runtime: AgentRuntime | undefined;

beforeEach(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-shot-"));
  llm = await startFakeOpenAI();
  site = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<title>Shot</title><h1>Look at me</h1>");
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  site.closeAllConnections();
  await Promise.all([llm.close(), new Promise<void>((resolve) => site.close(() => resolve()))]);
  rmSync(stateDir, { recursive: true, force: true });
});

type Message = { role: string; content: unknown };

/** Runs one turn in which the model opens the page and takes a screenshot; returns the request after the screenshot. */
async function screenshotTurn(input: string[] | undefined): Promise<Message[]> {
  llm.enqueue(
    [{ toolCall: { name: "browser", arguments: { action: "navigate", url: siteUrl } } }],
    [{ toolCall: { name: "browser", arguments: { action: "screenshot", path: "shot.png" } } }],
    [{ text: "It says look at me." }],
  );
  const raw = {
    agents: { defaults: { model: "local/fake-model", workspace: path.join(stateDir, "ws") } },
    models: {
      providers: {
        local: {
          api: "openai-completions",
          baseUrl: llm.baseUrl,
          apiKey: "k",
          models: [{ id: "fake-model", ...(input ? { input } : {}) }],
        },
      },
    },
    tools: { browser: { allowPrivateNetwork: true, ...(chromium ? { executablePath: chromium } : {}) } },
  };
  const result = validateConfig(raw, createConfigRegistry());
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  runtime = new AgentRuntime({
    config: result.config,
    paths: { stateDir, configPath: path.join(stateDir, "openclaw.json") },
    env: { HOME: stateDir },
  });
  const turn = await runtime.runTurn({ message: "what does the page say?" });
  expect(turn.status).toBe("ok");
  expect(llm.requests).toHaveLength(3);
  return llm.requests[2]!.body.messages as Message[];
}

describeBrowser("browser screenshot in an agent run", { timeout: 60_000 }, () => {
  it("sends the PNG to a model with input [text, image], after the tool message that names the file", async () => {
    const messages = await screenshotTurn(["text", "image"]);
    const last = messages.at(-1)!;
    expect(messages.at(-2)).toMatchObject({ role: "tool", content: expect.stringContaining("shot.png") });
    expect(last.role).toBe("user");
    const parts = last.content as Array<{ type: string; image_url?: { url: string } }>;
    const image = parts.find((p) => p.type === "image_url");
    // base64 of the PNG signature 89 50 4E 47 0D 0A 1A 0A
    expect(image?.image_url?.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  });

  it("sends only the text to a model without image input", async () => {
    const messages = await screenshotTurn(undefined);
    expect(messages.at(-1)).toMatchObject({ role: "tool", content: expect.stringContaining("shot.png") });
    expect(JSON.stringify(messages)).not.toContain("image_url");
  });
});
