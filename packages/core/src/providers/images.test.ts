import { startFakeAnthropic, startFakeOpenAI, type FakeModelServer } from "@openclaw/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { collect, request } from "./__fixtures__/collect.js";
import { createProvider, resolveProviderConfig, type ChatMessage, type ProviderModelInfo } from "./index.js";

// Tool results with images, checked on the wire: what each provider puts in the request body for
// a model that accepts images (`input: ["text", "image"]`) and for a text-only one.

const fakes: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").toString("base64");
const VISION: ProviderModelInfo = { id: "test-model", input: ["text", "image"] };
const TEXT_ONLY: ProviderModelInfo = { id: "test-model", input: ["text"] };

/** A turn in which the model called the browser and got a screenshot back, then the user spoke. */
const history: ChatMessage[] = [
  { role: "user", content: "show me the page" },
  { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "browser", arguments: { action: "screenshot" } }] },
  {
    role: "tool",
    toolCallId: "call_1",
    name: "browser",
    content: "Saved a screenshot to browser/shot.png",
    images: [{ mimeType: "image/png", data: PNG }],
  },
];

async function bodyFrom(kind: "openai" | "anthropic", model: ProviderModelInfo): Promise<Record<string, unknown>> {
  const server =
    kind === "openai" ? await startFakeOpenAI({ script: [[{ text: "ok" }]] }) : await startFakeAnthropic({ script: [[{ text: "ok" }]] });
  fakes.push(server);
  const id = kind === "openai" ? "local" : "anthropic";
  const cfg = resolveProviderConfig(
    { models: { providers: { [id]: { baseUrl: server.baseUrl, apiKey: "sk-test", models: [model] } } } },
    id,
    {},
  );
  if (!cfg) throw new Error("unresolved");
  const { error } = await collect(createProvider(cfg).stream(request({ messages: history })));
  expect(error).toBeUndefined();
  return server.lastRequest()!.body as Record<string, unknown>;
}

describe("OpenAI-compatible provider: images in tool results", () => {
  it("keeps the tool message as text and sends the image in a following user message to a vision model", async () => {
    const body = await bodyFrom("openai", VISION);
    const messages = body.messages as Array<Record<string, unknown>>;
    expect(messages.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "Saved a screenshot to browser/shot.png" },
      {
        role: "user",
        content: [
          { type: "text", text: "Image from the browser call call_1:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });

  it("sends only the text to a text-only model", async () => {
    for (const model of [TEXT_ONLY, { id: "test-model" }]) {
      const body = await bodyFrom("openai", model);
      const messages = body.messages as Array<Record<string, unknown>>;
      expect(messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "Saved a screenshot to browser/shot.png" });
      expect(JSON.stringify(body)).not.toContain(PNG);
    }
  });
});

describe("Anthropic provider: images in tool results", () => {
  it("puts the image as an image block inside the tool_result for a vision model", async () => {
    const body = await bodyFrom("anthropic", VISION);
    const messages = body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "call_1",
          content: [
            { type: "text", text: "Saved a screenshot to browser/shot.png" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          ],
        },
      ],
    });
  });

  it("sends only the text to a text-only model", async () => {
    for (const model of [TEXT_ONLY, { id: "test-model" }]) {
      const body = await bodyFrom("anthropic", model);
      const messages = body.messages as Array<{ role: string; content: unknown }>;
      expect(messages.at(-1)).toEqual({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "call_1", content: "Saved a screenshot to browser/shot.png" }],
      });
      expect(JSON.stringify(body)).not.toContain(PNG);
    }
  });
});
