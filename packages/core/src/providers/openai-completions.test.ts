import { startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { collect, request, textOf } from "./__fixtures__/collect.js";
import {
  createProvider,
  createProviderFactory,
  ProviderError,
  resolveProviderConfig,
  type ModelStreamEvent,
  type ResolvedProviderConfig,
} from "./index.js";

const fakes: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fake(options: Parameters<typeof startFakeOpenAI>[0] = {}): Promise<FakeModelServer> {
  const server = await startFakeOpenAI(options);
  fakes.push(server);
  return server;
}

/** A custom OpenAI-compatible provider pointing at the fake. */
function providerFor(server: FakeModelServer, extra: Partial<ResolvedProviderConfig> = {}) {
  const cfg = resolveProviderConfig({ models: { providers: { local: { baseUrl: server.baseUrl, apiKey: "sk-test" } } } }, "local", {});
  if (!cfg) throw new Error("unresolved");
  return createProvider({ ...cfg, ...extra });
}

describe("OpenAI-compatible provider against a real HTTP fake", () => {
  it("streams text in pieces, then text_end, usage and done", async () => {
    const server = await fake({ script: [[{ text: "Hello there, how are you today?" }]], chunkChars: 5 });
    const { events, error } = await collect(providerFor(server).stream(request()));
    expect(error).toBeUndefined();
    const deltas = events.filter((e) => e.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(3);
    expect(textOf(events)).toBe("Hello there, how are you today?");
    expect(events.slice(-3).map((e) => e.type)).toEqual(["text_end", "usage", "done"]);
    const usage = events.find((e) => e.type === "usage");
    expect(usage).toMatchObject({ type: "usage", inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "stop" });

    const seen = server.lastRequest()!;
    expect(seen.headers.authorization).toBe("Bearer sk-test");
    expect(seen.body).toMatchObject({
      model: "test-model",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "hello" },
      ],
    });
    expect(seen.body.tools).toBeUndefined();
  });

  it("assembles tool calls streamed in pieces and reports tool_use", async () => {
    const server = await fake({
      chunkChars: 3,
      script: [
        [
          { text: "Let me look." },
          { toolCall: { name: "read", arguments: { path: "notes/today.md", limit: 20 }, id: "call_a" } },
          { toolCall: { name: "exec", arguments: { command: "ls -la" } } },
        ],
      ],
    });
    const tools = [{ name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } }];
    const { events, error } = await collect(providerFor(server).stream(request({ tools })));
    expect(error).toBeUndefined();
    const types = events.map((e) => e.type);
    expect(types.indexOf("text_end")).toBeLessThan(types.indexOf("tool_call"));
    const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
    expect(calls).toEqual([
      { id: "call_a", name: "read", arguments: { path: "notes/today.md", limit: 20 } },
      { id: expect.any(String), name: "exec", arguments: { command: "ls -la" } },
    ]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "tool_use" });
    expect(server.lastRequest()!.body.tools).toEqual([{ type: "function", function: tools[0] }]);
  });

  it("sends tool history in the Chat Completions shape", async () => {
    const server = await fake();
    await collect(
      providerFor(server).stream(
        request({
          messages: [
            { role: "user", content: "list files" },
            { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "exec", arguments: { command: "ls" } }] },
            { role: "tool", toolCallId: "c1", name: "exec", content: "a.txt\nb.txt" },
            { role: "user", content: "thanks" },
          ],
        }),
      ),
    );
    expect(server.lastRequest()!.body.messages.slice(1)).toEqual([
      { role: "user", content: "list files" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "exec", arguments: '{"command":"ls"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "a.txt\nb.txt" },
      { role: "user", content: "thanks" },
    ]);
  });

  it("passes params and maxTokens (as max_tokens off api.openai.com) and reports length", async () => {
    const server = await fake({ script: [[{ text: "cut" }, { stopReason: "length" }]] });
    const { events } = await collect(providerFor(server).stream(request({ maxTokens: 42, params: { temperature: 0.2, stream: false } })));
    expect(server.lastRequest()!.body).toMatchObject({ max_tokens: 42, temperature: 0.2, stream: true });
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "length" });
  });

  it("stops quickly when aborted mid-stream and closes the connection", async () => {
    const server = await fake({ script: [[{ text: "first" }, { delayMs: 20_000 }, { text: "never" }]] });
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    const started = Date.now();
    const run = (async () => {
      for await (const event of providerFor(server).stream(request({ signal: controller.signal }))) {
        events.push(event);
        if (event.type === "text_delta") controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ name: "ProviderError", kind: "abort" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(textOf(events)).toBe("first");
    await server.idle();
    expect(server.lastRequest()!.outcome).toBe("client_closed");
  });

  it("refuses an already-aborted signal without calling the server", async () => {
    const server = await fake();
    const controller = new AbortController();
    controller.abort();
    const { error } = await collect(providerFor(server).stream(request({ signal: controller.signal })));
    expect(error).toMatchObject({ kind: "abort" });
    expect(server.requests).toHaveLength(0);
  });

  it("maps 429 with retry-after to rate_limit with retryAfterMs, without retrying", async () => {
    const server = await fake({ script: [[{ error: { status: 429, retryAfterSec: 7 } }]] });
    const { error } = await collect(providerFor(server).stream(request()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limit", status: 429, retryAfterMs: 7000, provider: "local", model: "test-model" });
    expect(server.requests).toHaveLength(1);
  });

  it("maps a wrong key (the platform's real 401) to auth, naming the fix", async () => {
    const server = await fake({ expectedApiKey: "sk-right" });
    const { error } = await collect(providerFor(server, { apiKey: "sk-wrong" }).stream(request()));
    expect(error).toMatchObject({ kind: "auth", status: 401 });
    expect((error as Error).message).toContain("Incorrect API key provided");
    expect((error as Error).message).toContain("models.providers.local.apiKey");
    expect(server.lastRequest()!.outcome).toBe("rejected");
  });

  it.each([503, 529])("maps %i to overloaded", async (status) => {
    const server = await fake({ script: [[{ error: { status } }]] });
    const { error } = await collect(providerFor(server).stream(request()));
    expect(error).toMatchObject({ kind: "overloaded", status });
  });

  it("maps a context-length 400 to context_overflow", async () => {
    const server = await fake({ script: [[{ error: { status: 400, contextOverflow: true } }]] });
    const { error } = await collect(providerFor(server).stream(request()));
    expect(error).toMatchObject({ kind: "context_overflow", status: 400 });
  });

  it("maps other 4xx to bad_request", async () => {
    const server = await fake({ script: [[{ error: { status: 404 } }]] });
    const { error } = await collect(providerFor(server).stream(request()));
    expect(error).toMatchObject({ kind: "bad_request", status: 404 });
    expect((error as Error).message).toContain("does not exist");
  });

  it("surfaces an in-stream error after text, and a dropped connection, as errors", async () => {
    const server = await fake({
      script: [
        [{ text: "partial" }, { error: { status: 503 } }],
        [{ text: "partial" }, { hangUp: true }],
      ],
    });
    const first = await collect(providerFor(server).stream(request()));
    expect(textOf(first.events)).toBe("partial");
    expect(first.error).toMatchObject({ kind: "overloaded" });
    const second = await collect(providerFor(server).stream(request()));
    expect(textOf(second.events)).toBe("partial");
    expect(second.error).toMatchObject({ kind: "unknown" });
    expect((second.error as Error).message).toMatch(/dropped|ended before/);
  });

  it("times out when the server goes quiet for longer than the idle timeout", async () => {
    const server = await fake({ script: [[{ text: "slow" }, { delayMs: 10_000 }, { text: "er" }]] });
    const { events, error } = await collect(providerFor(server, { timeoutMs: 200 }).stream(request()));
    expect(textOf(events)).toBe("slow");
    expect(error).toMatchObject({ kind: "timeout" });
    expect((error as Error).message).toContain("timeoutSeconds");
  });

  it("maps a refused connection to unknown, naming the URL", async () => {
    const server = await fake();
    const url = server.baseUrl;
    await server.close();
    const cfg = resolveProviderConfig({ models: { providers: { gone: { baseUrl: url, apiKey: "k" } } } }, "gone", {})!;
    const { error } = await collect(createProvider(cfg).stream(request()));
    expect(error).toMatchObject({ kind: "unknown" });
    expect((error as Error).message).toContain(url);
  });
});

describe("OpenAI-compatible provider configuration", () => {
  it("uses a custom provider from config with its baseUrl, apiKey and headers", async () => {
    const server = await fake({ expectedApiKey: "sk-custom" });
    const config = {
      models: {
        providers: {
          mine: { api: "openai-completions" as const, baseUrl: server.baseUrl, apiKey: "sk-custom", headers: { "x-team": "blue" } },
        },
      },
    };
    const create = createProviderFactory(config, { env: {} });
    const { events, error } = await collect(create({ provider: "mine", model: "m1" }).stream(request({ model: "m1" })));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe("hello");
    expect(server.lastRequest()!.headers["x-team"]).toBe("blue");
    expect(server.lastRequest()!.body.model).toBe("m1");
  });

  it("talks to a keyless local endpoint with a placeholder key", async () => {
    const server = await fake();
    const config = { models: { providers: { ollama: { baseUrl: server.baseUrl } } } };
    const create = createProviderFactory(config, { env: {} });
    const { events, error } = await collect(create({ provider: "ollama", model: "llama3.1" }).stream(request({ model: "llama3.1" })));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe("hello");
    expect(server.lastRequest()!.headers.authorization).toBe("Bearer openclaw-no-key");
  });

  it("reads OPENAI_API_KEY from the environment for the built-in openai provider", () => {
    const cfg = resolveProviderConfig({}, "openai", { OPENAI_API_KEY: "sk-env" });
    expect(cfg).toMatchObject({ apiKey: "sk-env", apiKeySource: "env", apiKeyEnv: "OPENAI_API_KEY", baseUrl: "https://api.openai.com/v1" });
  });

  it("fails without a request when the key is missing, saying which variable to set", async () => {
    const server = await fake();
    const config = { models: { providers: { openai: { baseUrl: server.baseUrl } } } };
    const create = createProviderFactory(config, { env: {}, configPath: "/home/me/.openclaw/openclaw.json" });
    const { error } = await collect(create({ provider: "openai", model: "gpt-4o" }).stream(request({ model: "gpt-4o" })));
    expect(error).toMatchObject({ kind: "auth", provider: "openai" });
    const message = (error as Error).message;
    expect(message).toContain("OPENAI_API_KEY");
    expect(message).toContain("models.providers.openai.apiKey");
    expect(message).toContain("/home/me/.openclaw/openclaw.json");
    expect(server.requests).toHaveLength(0);
  });

  it("names OPENROUTER_API_KEY for openrouter", async () => {
    const create = createProviderFactory({}, { env: {} });
    const { error } = await collect(
      create({ provider: "openrouter", model: "moonshotai/kimi-k2" }).stream(request({ model: "moonshotai/kimi-k2" })),
    );
    expect((error as Error).message).toContain("OPENROUTER_API_KEY");
  });
});
