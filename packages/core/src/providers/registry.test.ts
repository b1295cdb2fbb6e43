import { describe, expect, it } from "vitest";
import { isLocalBaseUrl, isProviderInPlay, listProviderIds, parseRetryAfter, resolveProviderConfig, toProviderError } from "./index.js";

describe("resolveProviderConfig", () => {
  it("knows the built-in providers in merge mode", () => {
    expect(listProviderIds({})).toEqual(["openai", "anthropic", "openrouter", "ollama", "lmstudio", "vllm"]);
    expect(resolveProviderConfig({}, "openrouter", { OPENROUTER_API_KEY: "or-key" })).toMatchObject({
      api: "openai-completions",
      baseUrl: "https://openrouter.ai/api/v1",
      apiKey: "or-key",
      requiresApiKey: true,
      timeoutMs: 120_000,
    });
    expect(resolveProviderConfig({}, "ollama", { OPENAI_API_KEY: "sk-secret" })).toMatchObject({
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKeySource: "none",
      requiresApiKey: false,
      local: true,
      timeoutMs: 300_000,
    });
    expect(resolveProviderConfig({}, "lmstudio", {})?.baseUrl).toBe("http://127.0.0.1:1234/v1");
    expect(resolveProviderConfig({}, "vllm", {})?.baseUrl).toBe("http://127.0.0.1:8000/v1");
    expect(resolveProviderConfig({}, "anthropic", {})).toMatchObject({
      api: "anthropic-messages",
      baseUrl: "https://api.anthropic.com",
      apiKeyEnv: "ANTHROPIC_API_KEY",
    });
  });

  it("lets config override a built-in and add custom providers; replace mode drops built-ins", () => {
    const config = {
      models: {
        providers: {
          openai: { baseUrl: "https://proxy.example.com/v1/", apiKey: "sk-cfg", headers: { "x-org": "1" }, timeoutSeconds: 30 },
          corp: { api: "anthropic-messages" as const, baseUrl: "https://llm.corp.example", apiKey: "corp-key" },
        },
      },
    };
    expect(resolveProviderConfig(config, "openai", { OPENAI_API_KEY: "sk-env" })).toMatchObject({
      baseUrl: "https://proxy.example.com/v1",
      apiKey: "sk-cfg",
      apiKeySource: "config",
      headers: { "x-org": "1" },
      timeoutMs: 30_000,
      builtin: true,
    });
    expect(resolveProviderConfig(config, "corp", {})).toMatchObject({ api: "anthropic-messages", apiKey: "corp-key", builtin: false });
    expect(resolveProviderConfig({ models: { mode: "replace", providers: config.models.providers } }, "anthropic", {})).toBeUndefined();
    expect(resolveProviderConfig({}, "nope", {})).toBeUndefined();
  });

  it("never sends an environment key to a custom endpoint", () => {
    const config = {
      models: { providers: { remote: { baseUrl: "https://api.example.net/v1" }, public: { api: "openai-completions" as const } } },
    };
    expect(resolveProviderConfig(config, "remote", { OPENAI_API_KEY: "sk-env" })).toMatchObject({
      apiKeySource: "none",
      requiresApiKey: false,
    });
    expect(resolveProviderConfig(config, "public", { OPENAI_API_KEY: "sk-env" })).toMatchObject({
      apiKey: "sk-env",
      apiKeyEnv: "OPENAI_API_KEY",
      baseUrl: "https://api.openai.com/v1",
    });
  });

  it("keeps the built-in anthropic api when only the schema's default api was filled in", () => {
    const config = { models: { providers: { anthropic: { api: "openai-completions" as const, apiKey: "k" } } } };
    expect(resolveProviderConfig(config, "anthropic", {})?.api).toBe("anthropic-messages");
  });

  it("classifies local endpoints", () => {
    for (const url of [
      "http://127.0.0.1:8080/v1",
      "http://localhost:1234",
      "http://192.168.1.20:11434/v1",
      "http://[::1]:8000",
      "http://box.local:8000",
    ]) {
      expect(isLocalBaseUrl(url)).toBe(true);
    }
    for (const url of ["https://api.openai.com/v1", "https://openrouter.ai/api/v1", "not a url"]) expect(isLocalBaseUrl(url)).toBe(false);
  });
});

describe("error classification", () => {
  const ctx = { provider: "p", model: "m" };
  const headers = (h: Record<string, string>) => new Headers(h);

  it("parses retry-after in seconds, milliseconds and as a date", () => {
    expect(parseRetryAfter(headers({ "retry-after": "2.5" }))).toBe(2500);
    expect(parseRetryAfter(headers({ "retry-after-ms": "150", "retry-after": "9" }))).toBe(150);
    expect(parseRetryAfter(headers({ "retry-after": new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString() }), Date.UTC(2030, 0, 1))).toBe(
      30_000,
    );
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });

  it("maps statuses and wording to kinds", () => {
    const kind = (err: unknown) => toProviderError(err, ctx).kind;
    expect(kind({ status: 403, message: "forbidden" })).toBe("auth");
    expect(kind({ status: 402, message: "billing" })).toBe("auth");
    expect(kind({ status: 504, message: "gateway timeout" })).toBe("timeout");
    expect(kind({ status: 400, message: "This model's maximum context length is 8192 tokens" })).toBe("context_overflow");
    expect(kind({ status: 400, message: "the request exceeds the available context size" })).toBe("context_overflow");
    expect(kind({ status: 422, message: "bad tool schema" })).toBe("bad_request");
    expect(kind({ status: 500, message: "boom" })).toBe("unknown");
    expect(kind(Object.assign(new Error("stopped"), { name: "AbortError" }))).toBe("abort");
    const aborted = new AbortController();
    aborted.abort();
    expect(toProviderError(new Error("whatever"), { ...ctx, signal: aborted.signal }).kind).toBe("abort");
  });
});

describe("isProviderInPlay", () => {
  it("answers as listProviderIds does, in any case: built-ins unless replaced, and configured providers", () => {
    const configs = [
      {},
      { models: { providers: { MyLab: { baseUrl: "http://127.0.0.1:9/v1" } } } },
      { models: { mode: "replace" as const, providers: { MyLab: { baseUrl: "http://127.0.0.1:9/v1" } } } },
      { models: { mode: "replace" as const, providers: { openai: {} } } },
    ];
    for (const config of configs) {
      const listed = listProviderIds(config as never).map((id) => id.toLowerCase());
      for (const id of ["openai", "OpenAI", "anthropic", "mylab", "MYLAB", "vllm", "zero"]) {
        expect(isProviderInPlay(config as never, id), `${id} in ${JSON.stringify(config)}`).toBe(listed.includes(id.toLowerCase()));
      }
    }
  });
});
