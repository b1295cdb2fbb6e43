import { describe, expect, it } from "vitest";
import { missingProviderPackages, PROVIDER_PACKAGES } from "./index.js";

// A package name that resolves nowhere: what a user without the provider package has.
const absent = { "anthropic-messages": { packageName: "@openclaw/provider-absent-here", checkoutFolder: "packages/provider-absent-here" } };

describe("missingProviderPackages", () => {
  it("reports a provider a configured model uses when its package does not resolve, naming key, file and command", () => {
    const config = {
      models: { providers: { claude: { api: "anthropic-messages" as const, baseUrl: "https://api.anthropic.com", apiKey: "k" } } },
      agents: { defaults: { model: { primary: "openai/gpt-4o", fallbacks: ["claude/claude-sonnet-4-5"] } } },
    };
    const missing = missingProviderPackages(config, { configPath: "/home/me/.openclaw/openclaw.json", packages: absent });
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatchObject({ provider: "claude", api: "anthropic-messages", ref: "claude/claude-sonnet-4-5" });
    expect(missing[0]!.message).toContain("models.providers.claude");
    expect(missing[0]!.message).toContain("/home/me/.openclaw/openclaw.json");
    expect(missing[0]!.message).toContain("npm install -g @openclaw/provider-absent-here");
  });

  it("checks agents' own models too, and ignores providers no model uses", () => {
    expect(missingProviderPackages({ agents: { defaults: { model: "openai/gpt-4o" } } }, { packages: absent })).toEqual([]);
    const perAgent = { agents: { defaults: { model: "openai/gpt-4o" }, entries: { writer: { model: "anthropic/claude-opus-4" } } } };
    expect(missingProviderPackages(perAgent, { packages: absent }).map((m) => m.provider)).toEqual(["anthropic"]);
  });

  it("finds nothing missing when the package is installed (here: the workspace's @openclaw/provider-anthropic)", () => {
    expect(PROVIDER_PACKAGES["anthropic-messages"]?.packageName).toBe("@openclaw/provider-anthropic");
    expect(missingProviderPackages({ agents: { defaults: { model: "anthropic/claude-sonnet-4-5" } } })).toEqual([]);
  });
});
