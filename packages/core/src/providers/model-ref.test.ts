import { describe, expect, it } from "vitest";
import { createConfigRegistry, UserError, validateConfig, type OpenClawConfig } from "../config/index.js";
import {
  defaultProviderId,
  noModelConfiguredMessage,
  parseModelRef,
  resolveModelRef,
  resolveModelSelection,
  type ModelsConfigView,
} from "./index.js";

describe("parseModelRef", () => {
  it("splits on the first slash only", () => {
    expect(parseModelRef("openai/gpt-4o")).toEqual({ provider: "openai", model: "gpt-4o" });
    expect(parseModelRef("openrouter/moonshotai/kimi-k2")).toEqual({ provider: "openrouter", model: "moonshotai/kimi-k2" });
    expect(parseModelRef("  gpt-4o ")).toEqual({ model: "gpt-4o" });
  });

  it("rejects empty refs and empty parts", () => {
    for (const bad of ["", "  ", "/gpt-4o", "openai/"]) expect(() => parseModelRef(bad)).toThrow(UserError);
  });
});

describe("resolveModelRef", () => {
  const config: ModelsConfigView = {
    models: {
      providers: {
        local: { baseUrl: "http://127.0.0.1:8080/v1", models: [{ id: "qwen3-coder" }, { id: "shared" }] },
        other: { baseUrl: "http://127.0.0.1:9090/v1", models: [{ id: "shared" }] },
      },
    },
    agents: {
      defaults: {
        model: { primary: "anthropic/claude-sonnet-5-5" },
        models: {
          "anthropic/claude-sonnet-5-5": { alias: "sonnet" },
          "openrouter/moonshotai/kimi-k2": { alias: "Kimi" },
        },
      },
    },
  };

  it("takes provider/model as is, even with slashes in the model id", () => {
    expect(resolveModelRef("openrouter/moonshotai/kimi-k2", config)).toMatchObject({
      provider: "openrouter",
      model: "moonshotai/kimi-k2",
      via: "explicit",
    });
    expect(resolveModelRef("nobody/x", config)).toMatchObject({ provider: "nobody", model: "x", ref: "nobody/x" });
  });

  it("resolves an alias first (exact, then case-insensitive)", () => {
    expect(resolveModelRef("sonnet", config)).toEqual({
      provider: "anthropic",
      model: "claude-sonnet-5-5",
      ref: "anthropic/claude-sonnet-5-5",
      via: "alias",
      alias: "sonnet",
    });
    expect(resolveModelRef("kimi", config)).toMatchObject({ provider: "openrouter", model: "moonshotai/kimi-k2", via: "alias" });
  });

  it("then a unique configured provider listing that model id", () => {
    expect(resolveModelRef("qwen3-coder", config)).toMatchObject({ provider: "local", model: "qwen3-coder", via: "provider-match" });
  });

  it("then the default provider: the primary's provider (also when the id is ambiguous)", () => {
    expect(resolveModelRef("shared", config)).toMatchObject({ provider: "anthropic", model: "shared", via: "default" });
    expect(resolveModelRef("claude-opus-5", config)).toEqual({
      provider: "anthropic",
      model: "claude-opus-5",
      ref: "anthropic/claude-opus-5",
      via: "default",
    });
  });

  it("defaults to openai without a primary, and uses the agent's primary when asked", () => {
    expect(resolveModelRef("gpt-4o", {})).toMatchObject({ provider: "openai", ref: "openai/gpt-4o" });
    const withAgent: ModelsConfigView = {
      agents: { defaults: { model: "openai/gpt-4o" }, entries: { coder: { model: "ollama/llama3.1" } } },
    };
    expect(resolveModelRef("qwen2.5", withAgent, { agentId: "Coder" }).provider).toBe("ollama");
    expect(resolveModelRef("qwen2.5", withAgent).provider).toBe("openai");
  });

  it("falls back to the first configured provider when the primary's provider is gone", () => {
    const replaced: ModelsConfigView = {
      models: { mode: "replace", providers: { lab: { baseUrl: "http://10.0.0.5:8000/v1" } } },
      agents: { defaults: { model: "anthropic/claude-opus-5" } },
    };
    expect(defaultProviderId(replaced)).toBe("lab");
    expect(resolveModelRef("mistral-small", replaced).ref).toBe("lab/mistral-small");
  });
});

describe("resolveModelSelection", () => {
  it("returns an empty list when no model is configured", () => {
    expect(resolveModelSelection({}, "main")).toEqual([]);
    expect(resolveModelSelection({ agents: { defaults: {} } })).toEqual([]);
  });

  it("gives primary then fallbacks, resolved and deduplicated, with alias and params", () => {
    const config: ModelsConfigView = {
      agents: {
        defaults: {
          model: {
            primary: "sonnet",
            fallbacks: ["anthropic/claude-sonnet-5-5", "openai/gpt-4o", "Sonnet", "openai/gpt-4o", "openrouter/moonshotai/kimi-k2"],
          },
          models: { "anthropic/claude-sonnet-5-5": { alias: "sonnet", params: { temperature: 0.3 } } },
        },
      },
    };
    expect(resolveModelSelection(config, "main")).toEqual([
      {
        provider: "anthropic",
        model: "claude-sonnet-5-5",
        ref: "anthropic/claude-sonnet-5-5",
        alias: "sonnet",
        params: { temperature: 0.3 },
      },
      { provider: "openai", model: "gpt-4o", ref: "openai/gpt-4o" },
      { provider: "openrouter", model: "moonshotai/kimi-k2", ref: "openrouter/moonshotai/kimi-k2" },
    ]);
  });

  it("treats a string on an agent entry as strict, and an object as its own selection", () => {
    const config: ModelsConfigView = {
      agents: {
        defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["anthropic/claude-opus-5"] } },
        entries: {
          strict: { model: "ollama/llama3.1" },
          inherit: { model: { primary: "openrouter/moonshotai/kimi-k2" } },
          none: { model: { primary: "openai/gpt-4o-mini", fallbacks: [] } },
          plain: {},
        },
      },
    };
    expect(resolveModelSelection(config, "strict").map((c) => c.ref)).toEqual(["ollama/llama3.1"]);
    expect(resolveModelSelection(config, "inherit").map((c) => c.ref)).toEqual([
      "openrouter/moonshotai/kimi-k2",
      "anthropic/claude-opus-5",
    ]);
    expect(resolveModelSelection(config, "none").map((c) => c.ref)).toEqual(["openai/gpt-4o-mini"]);
    expect(resolveModelSelection(config, "plain").map((c) => c.ref)).toEqual(["openai/gpt-4o", "anthropic/claude-opus-5"]);
    expect(resolveModelSelection(config, "unknown-agent").map((c) => c.ref)).toEqual(["openai/gpt-4o", "anthropic/claude-opus-5"]);
  });

  it("names the config key of a malformed ref", () => {
    const config: ModelsConfigView = { agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["anthropic/"] } } } };
    expect(() => resolveModelSelection(config)).toThrow(/agents\.defaults\.model\.fallbacks\[0\]/);
  });

  it("works on a validated OpenClawConfig", () => {
    const result = validateConfig(
      {
        models: { providers: { vllm: { baseUrl: "http://127.0.0.1:8000/v1", models: [{ id: "qwen3" }] } } },
        agents: { defaults: { model: { primary: "qwen3", fallbacks: ["openai/gpt-4o"] } } },
      },
      createConfigRegistry(),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const config: OpenClawConfig = result.config;
    const view: ModelsConfigView = config;
    expect(resolveModelSelection(view, "main").map((c) => c.ref)).toEqual(["vllm/qwen3", "openai/gpt-4o"]);
  });
});

describe("a stale default model", () => {
  const providers = {
    local: { baseUrl: "http://127.0.0.1:8080/v1", models: [{ id: "qwen3-coder" }, { id: "llama3" }] },
    spare: { baseUrl: "http://127.0.0.1:9090/v1", models: [{ id: "mistral" }] },
  };

  it("falls back to the first configured provider's first model, not to a bare id on openai", () => {
    const config: ModelsConfigView = {
      models: { providers },
      agents: { defaults: { model: { primary: "gpt-retired", fallbacks: ["spare/mistral"] } } },
    };
    expect(resolveModelSelection(config).map((c) => c.ref)).toEqual(["local/qwen3-coder", "spare/mistral"]);
  });

  it("also when the primary's provider was removed from the config", () => {
    const config: ModelsConfigView = { models: { providers }, agents: { defaults: { model: "oldlab/big-model" } } };
    expect(resolveModelSelection(config)).toEqual([{ provider: "local", model: "qwen3-coder", ref: "local/qwen3-coder" }]);
    const agent: ModelsConfigView = { models: { providers }, agents: { entries: { work: { model: "gone/x" } } } };
    expect(resolveModelSelection(agent, "work").map((c) => c.ref)).toEqual(["local/qwen3-coder"]);
  });

  it("keeps a default that is still served, or when nothing is configured to fall back to", () => {
    const listed: ModelsConfigView = { models: { providers }, agents: { defaults: { model: "llama3" } } };
    expect(resolveModelSelection(listed).map((c) => c.ref)).toEqual(["local/llama3"]);
    const builtin: ModelsConfigView = { models: { providers }, agents: { defaults: { model: "anthropic/claude-opus-5" } } };
    expect(resolveModelSelection(builtin).map((c) => c.ref)).toEqual(["anthropic/claude-opus-5"]);
    expect(resolveModelSelection({ agents: { defaults: { model: "gpt-4o" } } }).map((c) => c.ref)).toEqual(["openai/gpt-4o"]);
    const unlisted: ModelsConfigView = {
      models: { providers: { openai: { apiKey: "k" }, ...providers } },
      agents: { defaults: { model: "gpt-4o" } },
    };
    expect(resolveModelSelection(unlisted).map((c) => c.ref)).toEqual(["openai/gpt-4o"]);
  });
});

describe("noModelConfiguredMessage", () => {
  it("says how to configure a cloud or local model", () => {
    const message = noModelConfiguredMessage("/home/me/.openclaw/openclaw.json");
    expect(message).toContain("No model is configured");
    expect(message).toContain("/home/me/.openclaw/openclaw.json");
    expect(message).toContain("openclaw config set agents.defaults.model openai/gpt-4o");
    expect(message).toContain("OPENAI_API_KEY");
    expect(message).toContain("ANTHROPIC_API_KEY");
    expect(message).toContain("models.providers");
  });
});
