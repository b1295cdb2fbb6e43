import { describe, expect, it } from "vitest";
import { createConfigRegistry, validateConfig, type OpenClawConfig } from "../../config/index.js";
import { ProviderError, type ModelProvider, type ModelRequest } from "../../providers/index.js";
import { DEFAULT_CONTEXT_WINDOW, resolveContextWindow } from "./context-window.js";
import { countingProviders } from "./counting-provider.js";
import { compactionLimits } from "./settings.js";
import { TokenCalibration } from "./tokens.js";

function config(raw: Record<string, unknown> = {}): OpenClawConfig {
  const result = validateConfig(raw, createConfigRegistry());
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

describe("context windows", () => {
  it("takes the configured window, else a known model's, else the conservative default", () => {
    const c = config({
      models: { providers: { local: { baseUrl: "http://127.0.0.1:1/v1", models: [{ id: "gpt-4o", contextWindow: 4096 }] } } },
    });
    expect(resolveContextWindow(c, "local/gpt-4o")).toBe(4096);
    expect(resolveContextWindow(c, "openai/gpt-4o-mini")).toBe(128_000);
    expect(resolveContextWindow(c, "openai/gpt-4")).toBe(8_192);
    expect(resolveContextWindow(c, "openai/gpt-4.1-mini")).toBe(1_047_576);
    expect(resolveContextWindow(c, "openrouter/anthropic/claude-sonnet-4")).toBe(200_000);
    expect(resolveContextWindow(c, "ollama/llama3.1:8b")).toBe(131_072);
    expect(resolveContextWindow(c, "local/my-finetune")).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(resolveContextWindow(c, undefined)).toBe(DEFAULT_CONTEXT_WINDOW);
  });

  it("caps the configured amounts by the window so small models still compact", () => {
    const big = compactionLimits(config(), 200_000);
    expect(big).toMatchObject({ threshold: 184_000, keepRecent: 20_000, flushAt: 180_000, summaryMaxTokens: 4096 });
    const small = compactionLimits(config(), 8000);
    expect(small).toMatchObject({ threshold: 6000, keepRecent: 2400, flushAt: 5200, summaryMaxTokens: 1200 });
    const off = compactionLimits(config({ agents: { defaults: { compaction: { memoryFlush: { enabled: false } } } } }), 8000);
    expect(off.flushAt).toBeUndefined();
  });
});

describe("counted calls", () => {
  const request = (chars: number): Omit<ModelRequest, "model"> & { model: string } => ({
    model: "m",
    system: "",
    messages: [{ role: "user", content: "x".repeat(chars) }],
    tools: [],
    signal: new AbortController().signal,
  });
  const candidate = { provider: "p", model: "m", ref: "p/m" };

  it("refuses a request over the window before sending it, and learns the provider's count", async () => {
    let sent = 0;
    const inner: ModelProvider = {
      id: "p",
      api: "openai-completions",
      async *stream() {
        sent += 1;
        yield { type: "usage", inputTokens: 300, outputTokens: 1 };
        yield { type: "done", stopReason: "stop" };
      },
    };
    const calibration = new TokenCalibration();
    const create = countingProviders(() => inner, { calibration, windowOf: () => 1000 });
    const drain = async (chars: number) => {
      for await (const _ of create(candidate).stream(request(chars))) void _;
    };
    await expect(drain(8000)).rejects.toMatchObject({ kind: "context_overflow" });
    await expect(drain(8000)).rejects.toBeInstanceOf(ProviderError);
    expect(sent).toBe(0);
    // 400 characters estimate 104 tokens; the provider says 300: later estimates grow to match.
    await drain(400);
    expect(sent).toBe(1);
    expect(calibration.ratio("p/m")).toBeCloseTo(300 / 104, 5);
    // 3000 characters fit by the raw estimate (754) but not once calibrated (about 2175).
    await expect(drain(3000)).rejects.toMatchObject({ kind: "context_overflow" });
  });
});
