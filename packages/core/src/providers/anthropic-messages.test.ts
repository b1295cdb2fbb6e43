import { startFakeAnthropic, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { collect, request, textOf } from "./__fixtures__/collect.js";
import {
  createProvider,
  createProviderFactory,
  resolveProviderConfig,
  type ModelStreamEvent,
  type ResolvedProviderConfig,
} from "./index.js";

const fakes: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fake(options: Parameters<typeof startFakeAnthropic>[0] = {}): Promise<FakeModelServer> {
  const server = await startFakeAnthropic(options);
  fakes.push(server);
  return server;
}

/** The built-in anthropic provider, pointed at the fake. */
function providerFor(server: FakeModelServer, extra: Partial<ResolvedProviderConfig> = {}) {
  const cfg = resolveProviderConfig(
    { models: { providers: { anthropic: { baseUrl: server.baseUrl, apiKey: "sk-ant-test" } } } },
    "anthropic",
    {},
  );
  if (!cfg) throw new Error("unresolved");
  return createProvider({ ...cfg, ...extra });
}

describe("Anthropic provider against a real HTTP fake", () => {
  it("streams text, sends the system prompt and required headers, reports usage", async () => {
    const server = await fake({
      expectedApiKey: "sk-ant-test",
      chunkChars: 4,
      script: [[{ text: "Bonjour, tout le monde" }, { usage: { inputTokens: 31, outputTokens: 9 } }]],
    });
    const { events, error } = await collect(providerFor(server).stream(request({ model: "claude-sonnet-5-5" })));
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(3);
    expect(textOf(events)).toBe("Bonjour, tout le monde");
    expect(events.slice(-3)).toEqual([
      { type: "text_end" },
      { type: "usage", inputTokens: 31, outputTokens: 9 },
      { type: "done", stopReason: "stop" },
    ]);

    const seen = server.lastRequest()!;
    expect(seen.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(seen.body).toMatchObject({
      model: "claude-sonnet-5-5",
      system: "You are terse.",
      stream: true,
      max_tokens: 8192,
      messages: [{ role: "user", content: "hello" }],
    });
  });

  it("assembles tool_use input from input_json_delta pieces", async () => {
    const server = await fake({
      chunkChars: 2,
      script: [
        [
          { text: "Checking." },
          { toolCall: { name: "read", arguments: { path: "MEMORY.md", offset: 3 }, id: "toolu_1" } },
          { toolCall: { name: "exec", arguments: { command: "date" } } },
        ],
      ],
    });
    const tools = [
      {
        name: "read",
        description: "Read a file",
        parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    ];
    const { events, error } = await collect(providerFor(server).stream(request({ tools })));
    expect(error).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual([
      ...events.filter((e) => e.type === "text_delta").map(() => "text_delta"),
      "text_end",
      "tool_call",
      "tool_call",
      "usage",
      "done",
    ]);
    const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
    expect(calls).toEqual([
      { id: "toolu_1", name: "read", arguments: { path: "MEMORY.md", offset: 3 } },
      { id: expect.stringMatching(/^toolu_/), name: "exec", arguments: { command: "date" } },
    ]);
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "tool_use" });
    expect(server.lastRequest()!.body.tools).toEqual([{ name: "read", description: "Read a file", input_schema: tools[0]!.parameters }]);
  });

  it("maps tool history to tool_use and merged tool_result blocks", async () => {
    const server = await fake();
    await collect(
      providerFor(server).stream(
        request({
          system: "",
          messages: [
            { role: "user", content: "two things" },
            {
              role: "assistant",
              content: "On it.",
              toolCalls: [
                { id: "t1", name: "read", arguments: { path: "a" } },
                { id: "t2", name: "read", arguments: { path: "b" } },
              ],
            },
            { role: "tool", toolCallId: "t1", name: "read", content: "A" },
            { role: "tool", toolCallId: "t2", name: "read", content: "no such file", isError: true },
            { role: "user", content: "and?" },
          ],
        }),
      ),
    );
    const body = server.lastRequest()!.body;
    expect(body.system).toBeUndefined();
    expect(body.messages).toEqual([
      { role: "user", content: "two things" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "On it." },
          { type: "tool_use", id: "t1", name: "read", input: { path: "a" } },
          { type: "tool_use", id: "t2", name: "read", input: { path: "b" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "A" },
          { type: "tool_result", tool_use_id: "t2", content: "no such file", is_error: true },
          { type: "text", text: "and?" },
        ],
      },
    ]);
  });

  it("uses the model's maxTokens from config and reports max_tokens as length", async () => {
    const server = await fake({ script: [[{ text: "trunc" }, { stopReason: "length" }]] });
    const cfg = resolveProviderConfig(
      {
        models: {
          providers: { anthropic: { baseUrl: server.baseUrl, apiKey: "k", models: [{ id: "claude-haiku-4-5", maxTokens: 1024 }] } },
        },
      },
      "anthropic",
      {},
    )!;
    const { events } = await collect(createProvider(cfg).stream(request({ model: "claude-haiku-4-5", params: { temperature: 0 } })));
    expect(server.lastRequest()!.body).toMatchObject({ max_tokens: 1024, temperature: 0 });
    expect(events.at(-1)).toEqual({ type: "done", stopReason: "length" });
  });

  it("stops quickly when aborted mid-stream", async () => {
    const server = await fake({ script: [[{ text: "one" }, { delayMs: 20_000 }, { text: "two" }]] });
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
    expect(textOf(events)).toBe("one");
    await server.idle();
    expect(server.lastRequest()!.outcome).toBe("client_closed");
  });

  it("maps 429 with retry-after to rate_limit with retryAfterMs, without retrying", async () => {
    const server = await fake({ script: [[{ error: { status: 429, retryAfterSec: 12 } }]] });
    const { error } = await collect(providerFor(server).stream(request()));
    expect(error).toMatchObject({ kind: "rate_limit", status: 429, retryAfterMs: 12_000, provider: "anthropic" });
    expect(server.requests).toHaveLength(1);
  });

  it("maps a wrong key (the platform's real 401) to auth, naming ANTHROPIC_API_KEY", async () => {
    const server = await fake({ expectedApiKey: "sk-ant-right" });
    const { error } = await collect(providerFor(server).stream(request()));
    expect(error).toMatchObject({ kind: "auth", status: 401 });
    expect((error as Error).message).toContain("invalid x-api-key");
    expect((error as Error).message).toContain("ANTHROPIC_API_KEY");
  });

  it("maps 529 and an in-stream overloaded_error to overloaded", async () => {
    const server = await fake({ script: [[{ error: { status: 529 } }], [{ text: "so far" }, { error: { status: 529 } }]] });
    expect((await collect(providerFor(server).stream(request()))).error).toMatchObject({ kind: "overloaded", status: 529 });
    const midway = await collect(providerFor(server).stream(request()));
    expect(textOf(midway.events)).toBe("so far");
    expect(midway.error).toMatchObject({ kind: "overloaded" });
  });

  it("maps 'prompt is too long' to context_overflow", async () => {
    const server = await fake({ script: [[{ error: { status: 400, contextOverflow: true } }]] });
    const { error } = await collect(providerFor(server).stream(request()));
    expect(error).toMatchObject({ kind: "context_overflow", status: 400 });
  });

  it("reports a connection dropped mid-stream", async () => {
    const server = await fake({ script: [[{ text: "half" }, { hangUp: true }]] });
    const { events, error } = await collect(providerFor(server).stream(request()));
    expect(textOf(events)).toBe("half");
    expect(error).toMatchObject({ kind: "unknown" });
  });

  it("fails without a request when the key is missing, saying which variable to set", async () => {
    const create = createProviderFactory({}, { env: {}, configPath: "/cfg/openclaw.json" });
    const { error } = await collect(create({ provider: "anthropic", model: "claude-sonnet-5-5" }).stream(request()));
    expect(error).toMatchObject({ kind: "auth", provider: "anthropic" });
    expect((error as Error).message).toContain("ANTHROPIC_API_KEY");
    expect((error as Error).message).toContain("/cfg/openclaw.json");
  });

  it("reads ANTHROPIC_API_KEY from the environment", async () => {
    const server = await fake({ expectedApiKey: "sk-ant-env" });
    const config = { models: { providers: { anthropic: { baseUrl: server.baseUrl } } } };
    const create = createProviderFactory(config, { env: { ANTHROPIC_API_KEY: "sk-ant-env" } });
    const { events, error } = await collect(create({ provider: "anthropic", model: "claude-haiku-4-5" }).stream(request()));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe("hello");
  });
});
