import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, startFakeOpenAI, type FakeModelServer } from "../index.js";

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function open<T extends FakeModelServer>(start: Promise<T>): Promise<T> {
  const server = await start;
  servers.push(server);
  return server;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** Parses an SSE body into {event, data} records. */
function sse(text: string): Array<{ event?: string; data: string }> {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7);
      const data = lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "";
      return event === undefined ? { data } : { event, data };
    });
}

describe("startFakeOpenAI", () => {
  it("streams chunks, a finish chunk, a usage chunk and [DONE]", async () => {
    const fake = await open(startFakeOpenAI({ script: [[{ text: "abcdefghij", chunkChars: 4 }]] }));
    const res = await post(`${fake.baseUrl}/chat/completions`, {
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "x" }],
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const records = sse(await res.text());
    expect(records.at(-1)?.data).toBe("[DONE]");
    const chunks = records.slice(0, -1).map((r) => JSON.parse(r.data));
    expect(chunks[0].choices[0].delta.role).toBe("assistant");
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("abcdefghij");
    expect(chunks.filter((c) => c.choices[0]?.delta?.content).length).toBe(3);
    expect(chunks.at(-2).choices[0].finish_reason).toBe("stop");
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
    });
  });

  it("answers without streaming, lists models, and echoes by default", async () => {
    const fake = await open(startFakeOpenAI({ models: ["a", "b"] }));
    const res = await post(`${fake.baseUrl}/chat/completions`, {
      model: "m",
      messages: [{ role: "user", content: [{ type: "text", text: "echo me" }] }],
    });
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      object: "chat.completion",
      choices: [{ message: { role: "assistant", content: "echo me" }, finish_reason: "stop" }],
    });
    const models = (await (await fetch(`${fake.baseUrl}/models`)).json()) as any;
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(["a", "b"]);
    expect(fake.requests).toHaveLength(1);
  });

  it("lists models only for the expected key, as the real endpoints do (OpenAI and Anthropic)", async () => {
    const openai = await open(startFakeOpenAI({ models: ["a"], expectedApiKey: "sk-good-key-1234" }));
    expect((await fetch(`${openai.baseUrl}/models`, { headers: { authorization: "Bearer sk-wrong" } })).status).toBe(401);
    const ok = await fetch(`${openai.baseUrl}/models`, { headers: { authorization: "Bearer sk-good-key-1234" } });
    expect(((await ok.json()) as any).data.map((m: { id: string }) => m.id)).toEqual(["a"]);
    const anthropic = await open(startFakeAnthropic({ models: ["c"], expectedApiKey: "sk-ant-good" }));
    const refused = await fetch(`${anthropic.baseUrl}/v1/models`, { headers: { "x-api-key": "nope", "anthropic-version": "2023-06-01" } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as any).error.type).toBe("authentication_error");
    const listed = await fetch(`${anthropic.baseUrl}/v1/models`, {
      headers: { "x-api-key": "sk-ant-good", "anthropic-version": "2023-06-01" },
    });
    expect(((await listed.json()) as any).data.map((m: { id: string }) => m.id)).toEqual(["c"]);
  });

  it("rejects a wrong key with OpenAI's 401 shape and records the request", async () => {
    const fake = await open(startFakeOpenAI({ expectedApiKey: "sk-good-key-1234" }));
    const res = await post(`${fake.baseUrl}/chat/completions`, { model: "m", messages: [] }, { authorization: "Bearer sk-bad-key-5678" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: {
        message: expect.stringContaining("Incorrect API key provided: sk-"),
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    });
    expect(fake.lastRequest()).toMatchObject({ outcome: "rejected", headers: { authorization: "Bearer sk-bad-key-5678" } });
  });

  it("sends 429 with retry-after, and uses the responder after the script", async () => {
    const fake = await open(
      startFakeOpenAI({ script: [[{ error: { status: 429, retryAfterSec: 3 } }]], responder: () => [{ text: "from responder" }] }),
    );
    const limited = await post(`${fake.baseUrl}/chat/completions`, { model: "m", messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(((await limited.json()) as any).error.code).toBe("rate_limit_exceeded");
    const ok = (await (await post(`${fake.baseUrl}/chat/completions`, { model: "m", messages: [] })).json()) as any;
    expect(ok.choices[0].message.content).toBe("from responder");
  });

  it("an until step holds the stream until the test opens the gate", async () => {
    let openGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const fake = await open(startFakeOpenAI({ script: [[{ text: "before " }, { until: gate }, { text: "after" }]] }));
    const res = await post(`${fake.baseUrl}/chat/completions`, { model: "m", stream: true, messages: [] });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes("before ")) {
      const { done, value } = await reader.read();
      if (done) throw new Error("the stream ended at the gate");
      seen += decoder.decode(value, { stream: true });
    }
    expect(seen).not.toContain("after");
    expect(fake.lastRequest()!.outcome).toBeUndefined();
    openGate();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    const text = sse(seen)
      .filter((r) => r.data !== "[DONE]")
      .map((r) => JSON.parse(r.data).choices[0]?.delta?.content ?? "")
      .join("");
    expect(text).toBe("before after");
    await fake.idle();
    expect(fake.lastRequest()!.outcome).toBe("completed");
  });

  it("close() ends streams that are still open", async () => {
    const fake = await open(startFakeOpenAI({ script: [[{ text: "start" }, { delayMs: 60_000 }]] }));
    const res = await post(`${fake.baseUrl}/chat/completions`, { model: "m", stream: true, messages: [] });
    const reader = res.body!.getReader();
    await reader.read();
    await fake.waitForRequests(1);
    const closing = fake.close();
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow();
    await closing;
  });
});

describe("startFakeAnthropic", () => {
  it("streams the Messages event sequence with text and tool_use blocks", async () => {
    const fake = await open(startFakeAnthropic({ script: [[{ text: "Hi" }, { toolCall: { name: "read", arguments: { path: "x" } } }]] }));
    const res = await post(
      `${fake.baseUrl}/v1/messages`,
      { model: "m", max_tokens: 10, stream: true, messages: [{ role: "user", content: "q" }] },
      { "anthropic-version": "2023-06-01", "x-api-key": "k" },
    );
    const records = sse(await res.text());
    expect(records.map((r) => r.event)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      ...records.filter((r) => r.data.includes("input_json_delta")).map(() => "content_block_delta"),
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const partial = records
      .filter((r) => r.data.includes("input_json_delta"))
      .map((r) => JSON.parse(r.data).delta.partial_json)
      .join("");
    expect(JSON.parse(partial)).toEqual({ path: "x" });
    const delta = JSON.parse(records.find((r) => r.event === "message_delta")!.data);
    expect(delta).toMatchObject({ delta: { stop_reason: "tool_use" }, usage: { output_tokens: expect.any(Number) } });
  });

  it("checks anthropic-version and the key, with Anthropic's error shape", async () => {
    const fake = await open(startFakeAnthropic({ expectedApiKey: "sk-ant" }));
    const body = { model: "m", max_tokens: 5, messages: [{ role: "user", content: "q" }] };
    const noKey = await post(`${fake.baseUrl}/v1/messages`, body, { "anthropic-version": "2023-06-01" });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({
      type: "error",
      error: { type: "authentication_error", message: "x-api-key header is required" },
    });
    const noVersion = await post(`${fake.baseUrl}/v1/messages`, body, { "x-api-key": "sk-ant" });
    expect(noVersion.status).toBe(400);
    const ok = await post(`${fake.baseUrl}/v1/messages`, body, { "anthropic-version": "2023-06-01", authorization: "Bearer sk-ant" });
    expect(await ok.json()).toMatchObject({ type: "message", content: [{ type: "text", text: "q" }], stop_reason: "end_turn" });
  });

  it("answers 529 overloaded", async () => {
    const fake = await open(startFakeAnthropic({ script: [[{ error: { status: 529 } }]] }));
    const res = await post(
      `${fake.baseUrl}/v1/messages`,
      { model: "m", max_tokens: 5, messages: [] },
      { "anthropic-version": "2023-06-01" },
    );
    expect(res.status).toBe(529);
    expect(((await res.json()) as any).error).toEqual({ type: "overloaded_error", message: "Overloaded" });
  });
});
